// Where one function body reads and replaces its variables (private to
// analyzer/lib): the references to each variable, the assignments to it,
// and whether a value it holds may still be read after a point. Filled by
// BodyFacts' walk of the body; "after" is the order of the function's CFG.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class DeclRefExpr;
class Expr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class FunctionSequence;

class ValueReads {
public:
  // The values assigned to Var in the body (`v = e;`), in source order.
  llvm::ArrayRef<const clang::Expr *> assignmentsTo(const clang::ValueDecl &Var) const {
    auto It = Assignments.find(&Var);
    return It == Assignments.end() ? llvm::ArrayRef<const clang::Expr *>() : It->second;
  }
  // Whether Ref is the target of an assignment (`x = ...`), which only
  // writes the variable.
  bool isAssignmentTarget(const clang::DeclRefExpr &Ref) const {
    return AssignedRefs.contains(&Ref);
  }
  // The references to Var in the body, through every name of its place
  // (a local reference bound to it too), in source order.
  llvm::ArrayRef<const clang::DeclRefExpr *> usesOf(const clang::VarDecl &Var) const {
    auto It = Uses.find(&Var);
    return It == Uses.end() ? llvm::ArrayRef<const clang::DeclRefExpr *>() : It->second;
  }
  // The variable the assignment S (`v = e`) gives a new value, or null.
  const clang::ValueDecl *replaces(const clang::Stmt &S) const { return Replaced.lookup(&S); }
  // Whether Var may be read after E runs, before anything gives it another
  // value: a path from E to a reference to it that is not an assignment's
  // target (in a loop, the next iteration's reads count).
  bool isReadAfter(const clang::VarDecl &Var, const clang::Expr &E,
                   const FunctionSequence &Sequence) const;
  // Whether S, a statement Sequence lists, gives Var a new value: Var's
  // declaration or an assignment `Var = e` (a path through it no longer
  // carries the old value).
  bool givesNewValue(const clang::VarDecl &Var, const clang::Stmt &S,
                     const FunctionSequence &Sequence) const;

protected:
  // Filled by the walk of the body.
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::DeclRefExpr *, 4>> Uses;
  llvm::DenseSet<const clang::DeclRefExpr *> AssignedRefs;
  llvm::DenseMap<const clang::Stmt *, const clang::ValueDecl *> Replaced;
  llvm::DenseMap<const clang::ValueDecl *, llvm::SmallVector<const clang::Expr *, 2>> Assignments;
};

} // namespace placelint::analysis
