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
class CXXRecordDecl;
class DeclRefExpr;
class Expr;
class LambdaExpr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class FunctionSequence;

class BodyFacts {
public:
  BodyFacts(const clang::Stmt &Body, const ApiModel &Model);
  ~BodyFacts();

  const ApiModel &model() const { return Model; }
  bool mentionsApi() const { return MentionsApi; }
  // Whether Var may change behind the analysis's back, through a pointer or
  // a reference to it.
  bool isEscaped(const clang::ValueDecl &Var) const { return Escaped.contains(&Var); }
  // The innermost loop (for, while, do, range-for) around a tensor method
  // call, or null.
  const clang::Stmt *loopAround(const clang::Expr &Call) const;
  // The innermost loop around any call (a helper's, a lambda's), or null.
  const clang::Stmt *loopAroundCall(const clang::Expr &Call) const { return LoopOfAnyCall.lookup(&Call); }
  // Whether Var is declared inside Loop (the range-for variable included).
  bool isDeclaredIn(const clang::VarDecl &Var, const clang::Stmt &Loop) const;
  // Whether Var (a variable, or a field of `this`) may change during Loop:
  // assigned, moved from, passed by non-const reference outside the tensor
  // API, changed in place (`t.add_(...)`, `t += ...`), escaped, held by an
  // optimizer that steps in the loop, or, for a field, any non-const method
  // of `this` called in the loop.
  bool isChangedIn(const clang::ValueDecl &Var, const clang::Stmt &Loop);
  // Whether a call (of the tensor API or any other) runs only on some
  // iterations of its loop: under an `if` whose condition takes a remainder
  // (`if (step % 100 == 0)`).
  bool isPeriodic(const clang::Expr &Call) const { return Periodic.contains(&Call); }
  // Whether Expr, evaluated inside Loop, gives the same value on every
  // iteration: it reads only variables that do not change in Loop and calls
  // nothing but constructors and the tensor API.
  bool isInvariantIn(const clang::Expr &Expr, const clang::Stmt &Loop);
  // Whether Var, declared inside Loop, holds the same value on every
  // iteration: never changed, and initialised by only rearranging invariant
  // values (`std::vector<Tensor> held{w};`, `auto &alias = w;`,
  // `auto [a, b] = std::make_pair(w, 0);`). A range-for's variable does not.
  bool holdsInvariantValue(const clang::VarDecl &Var, const clang::Stmt &Loop);
  // Whether Var holds the same value on every iteration of Loop: not
  // changed in it, and declared before it or holding an invariant value.
  bool isUnchangedIn(const clang::VarDecl &Var, const clang::Stmt &Loop);

  llvm::ArrayRef<const clang::CXXMemberCallExpr *> discardedTransfers() const {
    return DiscardedTransfers;
  }
  llvm::ArrayRef<const clang::LambdaExpr *> lambdas() const { return Lambdas; }
  // Whether Index is the counter of a `for (T i = 0; ...)` loop: as an index
  // it stands for every element in turn.
  bool isZeroBasedCounter(const clang::Expr *Index) const;
  // The lambda of this body whose closure class is Closure, or null.
  const clang::LambdaExpr *lambdaOf(const clang::CXXRecordDecl &Closure) const;
  // The containers whose every element Loop writes: through a range-for's
  // non-const reference (`for (auto &t : v) t = ...`), or by the index
  // (`v[i] = ...`).
  llvm::ArrayRef<const clang::ValueDecl *> elementsWrittenBy(const clang::Stmt &Loop);
  // Whether Loop has another loop inside it that works on tensors (an epoch
  // loop around the batch loop: what it does once per epoch is not the hot
  // path).
  bool hasInnerLoop(const clang::Stmt &Loop) const { return OuterLoops.contains(&Loop); }
  // The loop directly around Loop, or null.
  const clang::Stmt *parentLoop(const clang::Stmt &Loop) const { return ParentLoop.lookup(&Loop); }
  // The values assigned to Var in the body (`v = e;`), in source order.
  llvm::ArrayRef<const clang::Expr *> assignmentsTo(const clang::ValueDecl &Var) const {
    auto It = Assignments.find(&Var);
    return It == Assignments.end() ? llvm::ArrayRef<const clang::Expr *>() : It->second;
  }
  // Whether the body calls `to` on its own object (a setup method that
  // moves the module it belongs to).
  bool movesThis() const { return MovesThis; }
  // Whether Ref is the target of an assignment (`x = ...`), which only
  // writes the variable.
  bool isAssignmentTarget(const clang::DeclRefExpr &Ref) const {
    return AssignedRefs.contains(&Ref);
  }
  // The references to Var in the body, in source order.
  llvm::ArrayRef<const clang::DeclRefExpr *> usesOf(const clang::VarDecl &Var) const {
    auto It = Uses.find(&Var);
    return It == Uses.end() ? llvm::ArrayRef<const clang::DeclRefExpr *>() : It->second;
  }
  // Whether Var may be read after E runs, before anything gives it another
  // value: a path from E to a reference to it that is not an assignment's
  // target (in a loop, the next iteration's reads count).
  bool isReadAfter(const clang::VarDecl &Var, const clang::Expr &E,
                   const FunctionSequence &Sequence) const;
  // The variable the assignment S (`v = e`) gives a new value, or null.
  const clang::ValueDecl *replaces(const clang::Stmt &S) const { return Replaced.lookup(&S); }
  // Whether S, a statement Sequence lists, gives Var a new value: Var's
  // declaration or an assignment `Var = e` (a path through it no longer
  // carries the old value).
  bool givesNewValue(const clang::VarDecl &Var, const clang::Stmt &S,
                     const FunctionSequence &Sequence) const;
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
  llvm::DenseMap<const clang::Expr *, const clang::Stmt *> LoopOfAnyCall;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> ParentLoop;
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> LoopOfDecl;
  llvm::DenseSet<const clang::ValueDecl *> Escaped;
  llvm::SmallVector<const clang::CXXMemberCallExpr *, 4> DiscardedTransfers;
  llvm::SmallVector<const clang::LambdaExpr *, 2> Lambdas;
  llvm::DenseSet<const clang::Expr *> Periodic;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RangeOfLoopVar;
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::DeclRefExpr *, 4>> Uses;
  llvm::DenseSet<const clang::DeclRefExpr *> AssignedRefs;
  llvm::DenseMap<const clang::Stmt *, const clang::ValueDecl *> Replaced;
  llvm::DenseSet<const clang::Stmt *> OuterLoops;
  llvm::DenseMap<const clang::ValueDecl *, llvm::SmallVector<const clang::Expr *, 2>> Assignments;
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<const clang::ValueDecl *, 1>>
      ElementWrites;
  llvm::DenseMap<const clang::Stmt *, const clang::VarDecl *> CounterOfLoop;
  // Tensors given to an optimizer, and the loops that call its step().
  llvm::DenseSet<const clang::ValueDecl *> HeldByOptimizer;
  llvm::DenseSet<const clang::Stmt *> OptimizerLoops;
  llvm::DenseMap<std::pair<const clang::ValueDecl *, const clang::Stmt *>, bool> Changed;
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::Stmt *>, bool> LoopLocalInvariant;
};

} // namespace placelint::analysis
