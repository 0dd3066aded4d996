// Syntactic facts about one function body (private to analyzer/lib),
// gathered in one walk before the flow analysis: whether it mentions the
// tensor API at all (if not, no CFG is built), the lambdas in it and
// whether it moves its own object. The questions are answered by parts,
// each in its own file, that the walk fills: Mutations (which place each
// local reference names, which variables escape, what changes in a
// statement, told of the API's in-place methods), LoopFacts (the loops, and what keeps its
// value across their iterations), ValueReads (uses, a reference's being
// uses of the place it names; assignments; reads after a point); the discarded transfers are a scan of their own
// (DiscardedTransfers.h). This is the one header rules and flow/ include.
#pragma once

#include "DiscardedTransfers.h"
#include "LoopFacts.h"
#include "Mutations.h"
#include "ValueReads.h"
#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace clang {
class CXXMemberCallExpr;
class CXXRecordDecl;
class LambdaExpr;
class Stmt;
} // namespace clang

namespace placelint::analysis {

class BodyFacts : public Mutations, public LoopFacts, public ValueReads {
public:
  BodyFacts(const clang::Stmt &Body, const ApiModel &Model);
  ~BodyFacts();

  const ApiModel &model() const { return Model; }
  bool mentionsApi() const { return MentionsApi; }
  // Found on first use (see DiscardedTransfers.h).
  llvm::ArrayRef<const clang::CXXMemberCallExpr *> discardedTransfers() const;
  llvm::ArrayRef<const clang::LambdaExpr *> lambdas() const { return Lambdas; }
  // The lambda of this body whose closure class is Closure, or null.
  const clang::LambdaExpr *lambdaOf(const clang::CXXRecordDecl &Closure) const;
  // Whether the body calls `to` on its own object (a setup method that
  // moves the module it belongs to).
  bool movesThis() const { return MovesThis; }

private:
  class Collector;

  const clang::Stmt &Body;
  const ApiModel &Model;
  bool MentionsApi = false;
  bool MovesThis = false;
  llvm::SmallVector<const clang::LambdaExpr *, 2> Lambdas;
  mutable std::optional<llvm::SmallVector<const clang::CXXMemberCallExpr *, 4>>
      DiscardedTransfers;
};

} // namespace placelint::analysis
