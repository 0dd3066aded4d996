// The loops of one function body and what stays the same in them (private
// to analyzer/lib): the innermost loop around each call and declaration,
// which calls run only on some iterations, the containers a loop writes
// element by element, and whether a variable or an expression keeps its
// value from one iteration to the next (the changes asked of Mutations).
// Filled by BodyFacts' walk of the body.
#pragma once

#include "Mutations.h"
#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class Expr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class LoopFacts {
public:
  LoopFacts(const ApiModel &Model, Mutations &Changes) : Model(Model), Changes(Changes) {}

  // The innermost loop (for, while, do, range-for) around a tensor method
  // call, or null.
  const clang::Stmt *loopAround(const clang::Expr &Call) const { return LoopOfCall.lookup(&Call); }
  // The innermost loop around any call (a helper's, a lambda's), or null.
  const clang::Stmt *loopAroundCall(const clang::Expr &Call) const {
    return LoopOfAnyCall.lookup(&Call);
  }
  // The loop directly around Loop, or null.
  const clang::Stmt *parentLoop(const clang::Stmt &Loop) const { return ParentLoop.lookup(&Loop); }
  // Whether Loop has another loop inside it that works on tensors (an epoch
  // loop around the batch loop: what it does once per epoch is not the hot
  // path).
  bool hasInnerLoop(const clang::Stmt &Loop) const { return OuterLoops.contains(&Loop); }
  // Whether Var is declared inside Loop (the range-for variable included).
  bool isDeclaredIn(const clang::VarDecl &Var, const clang::Stmt &Loop) const;
  // Whether a call (of the tensor API or any other) runs only on some
  // iterations of its loop: under an `if` whose condition takes a remainder
  // (`if (step % 100 == 0)`).
  bool isPeriodic(const clang::Expr &Call) const { return Periodic.contains(&Call); }
  // The range a range-for's loop variable walks, or null.
  const clang::Expr *rangeOf(const clang::VarDecl &LoopVar) const {
    return RangeOfLoopVar.lookup(&LoopVar);
  }
  // Whether Index is the counter of a `for (T i = 0; ...)` loop: as an index
  // it stands for every element in turn.
  bool isZeroBasedCounter(const clang::Expr *Index) const;
  // The containers whose every element Loop writes: through a range-for's
  // non-const reference (`for (auto &t : v) t = ...`), or by the index
  // (`v[i] = ...`).
  llvm::ArrayRef<const clang::ValueDecl *> elementsWrittenBy(const clang::Stmt &Loop);

  // Whether Var (a variable, or a field of `this`) may change during Loop:
  // as Mutations::changesIn says, escaped, or held by an optimizer that
  // steps in the loop.
  bool isChangedIn(const clang::ValueDecl &Var, const clang::Stmt &Loop);
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

protected:
  // Filled by the walk of the body.
  llvm::DenseMap<const clang::Expr *, const clang::Stmt *> LoopOfCall;
  llvm::DenseMap<const clang::Expr *, const clang::Stmt *> LoopOfAnyCall;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> ParentLoop;
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> LoopOfDecl;
  llvm::DenseSet<const clang::Expr *> Periodic;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RangeOfLoopVar;
  llvm::DenseSet<const clang::Stmt *> OuterLoops;
  llvm::DenseMap<const clang::Stmt *, const clang::VarDecl *> CounterOfLoop;
  // Tensors given to an optimizer, and the loops that call its step().
  llvm::DenseSet<const clang::ValueDecl *> HeldByOptimizer;
  llvm::DenseSet<const clang::Stmt *> OptimizerLoops;

private:
  const ApiModel &Model;
  Mutations &Changes;
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<const clang::ValueDecl *, 1>>
      ElementWrites;
  llvm::DenseMap<std::pair<const clang::ValueDecl *, const clang::Stmt *>, bool> Changed;
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::Stmt *>, bool> LoopLocalInvariant;
};

} // namespace placelint::analysis
