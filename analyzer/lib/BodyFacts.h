// Syntactic facts about one function body (private to analyzer/lib),
// gathered in one walk before the flow analysis: whether it mentions the tensor API at all (if not, no CFG is
// built), the innermost loop around each transfer, where variables are
// declared, which variables escape (address taken, bound to a non-const
// reference, captured by reference), the lambdas in it, and the transfers
// whose result is discarded.
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"


namespace clang {
class CXXMemberCallExpr;
class DeclRefExpr;
class Expr;
class LambdaExpr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class BodyFacts {
public:
  BodyFacts(const clang::Stmt &Body, const ApiModel &Model);
  ~BodyFacts();

  bool mentionsApi() const { return MentionsApi; }
  // Whether Var may change behind the analysis's back, through a pointer or
  // a reference to it.
  bool isEscaped(const clang::ValueDecl &Var) const { return Escaped.contains(&Var); }
  // The innermost loop (for, while, do, range-for) around a tensor method
  // call, or null.
  const clang::Stmt *loopAround(const clang::Expr &Call) const;
  // Whether Var is declared inside Loop (the range-for variable included).
  bool isDeclaredIn(const clang::VarDecl &Var, const clang::Stmt &Loop) const;
  // Whether Var (a variable, or a field of `this`) may change during Loop:
  // assigned, moved from, passed by non-const reference outside the tensor
  // API, changed in place (`t.add_(...)`, `t += ...`), escaped, held by an
  // optimizer that steps in the loop, or, for a field, any non-const method
  // of `this` called in the loop.
  bool isChangedIn(const clang::ValueDecl &Var, const clang::Stmt &Loop);
  // Whether Call runs only on some iterations of its loop: under an `if`
  // whose condition takes a remainder (`if (step % 100 == 0)`).
  bool isPeriodic(const clang::Expr &Call) const { return Periodic.contains(&Call); }
  // Whether Expr, evaluated inside Loop, gives the same value on every
  // iteration: it reads only variables that do not change in Loop and calls
  // nothing but constructors and the tensor API.
  bool isInvariantIn(const clang::Expr &Expr, const clang::Stmt &Loop);

  llvm::ArrayRef<const clang::CXXMemberCallExpr *> discardedTransfers() const {
    return DiscardedTransfers;
  }
  llvm::ArrayRef<const clang::LambdaExpr *> lambdas() const { return Lambdas; }
  // Whether Var is the batch of a range-for over a data loader, whose
  // tensors the loader made on the host.
  bool isLoaderBatch(const clang::VarDecl &Var) const { return LoaderBatches.contains(&Var); }
  // Whether `Var.Member = ...` appears in the body.
  bool isMemberAssigned(const clang::VarDecl &Var, const clang::ValueDecl &Member) const {
    return AssignedMembers.contains({&Var, &Member});
  }
  // Whether Loop has another loop inside it that works on tensors (an epoch
  // loop around the batch loop: what it does once per epoch is not the hot
  // path).
  bool hasInnerLoop(const clang::Stmt &Loop) const { return OuterLoops.contains(&Loop); }
  // The values assigned to Var in the body (`v = e;`), in source order.
  llvm::ArrayRef<const clang::Expr *> assignmentsTo(const clang::ValueDecl &Var) const {
    auto It = Assignments.find(&Var);
    return It == Assignments.end() ? llvm::ArrayRef<const clang::Expr *>() : It->second;
  }
  // Whether the body calls `to` on its own object (a setup method that
  // moves the module it belongs to).
  bool movesThis() const { return MovesThis; }
  // Whether E is compared (`dev.type() == kCUDA`): naming a device there
  // asks for nothing.
  bool isComparedDevice(const clang::Expr &E) const { return Compared.contains(&E); }
  // The first reference to Var in the body after its declaration, or null.
  const clang::DeclRefExpr *firstUseOf(const clang::VarDecl &Var) const {
    return FirstUse.lookup(&Var);
  }
  // The range a range-for's loop variable walks, or null.
  const clang::Expr *rangeOf(const clang::VarDecl &LoopVar) const {
    return RangeOfLoopVar.lookup(&LoopVar);
  }

private:
  class Collector;

  const ApiModel &Model;
  bool MentionsApi = false;
  bool MovesThis = false;
  llvm::DenseMap<const clang::Expr *, const clang::Stmt *> LoopOfCall;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> ParentLoop;
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> LoopOfDecl;
  llvm::DenseSet<const clang::ValueDecl *> Escaped;
  llvm::SmallVector<const clang::CXXMemberCallExpr *, 4> DiscardedTransfers;
  llvm::SmallVector<const clang::LambdaExpr *, 2> Lambdas;
  llvm::DenseSet<const clang::Expr *> Periodic;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RangeOfLoopVar;
  llvm::DenseSet<const clang::VarDecl *> LoaderBatches;
  llvm::DenseSet<const clang::Expr *> Compared;
  llvm::DenseMap<const clang::VarDecl *, const clang::DeclRefExpr *> FirstUse;
  llvm::DenseSet<const clang::Stmt *> OuterLoops;
  llvm::DenseMap<const clang::ValueDecl *, llvm::SmallVector<const clang::Expr *, 2>> Assignments;
  llvm::DenseSet<std::pair<const clang::VarDecl *, const clang::ValueDecl *>> AssignedMembers;
  // Tensors given to an optimizer, and the loops that call its step().
  llvm::DenseSet<const clang::ValueDecl *> HeldByOptimizer;
  llvm::DenseSet<const clang::Stmt *> OptimizerLoops;
  llvm::DenseMap<std::pair<const clang::ValueDecl *, const clang::Stmt *>, bool> Changed;
};

} // namespace placelint::analysis
