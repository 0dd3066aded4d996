// The summaries of the functions a translation unit defines: the fact of a
// call's result from the facts of its arguments, computed by analysing the
// callee's body on first use and cached by (callee, arguments).
#pragma once

#include "flow/SummaryProvider.h"
#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace placelint::analysis {

class FunctionSummaries : public SummaryProvider {
public:
  FunctionSummaries(clang::ASTContext &Context, const ApiModel &Model)
      : Context(Context), Model(Model) {}

  // Unknown for recursion, a call chain deeper than kMaxDepth, or a body the
  // analysis cannot take.
  ValueFact resultOf(const clang::FunctionDecl &Callee,
                     llvm::ArrayRef<ValueFact> Arguments) override;

private:
  static constexpr unsigned kMaxDepth = 4;

  clang::ASTContext &Context;
  const ApiModel &Model;
  std::map<std::string, ValueFact> Cache;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
};

// Whether the analysis can take Function's body at all.
bool isAnalyzable(const clang::FunctionDecl &Function, const clang::ASTContext &Context);

} // namespace placelint::analysis
