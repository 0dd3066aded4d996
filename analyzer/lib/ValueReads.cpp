#include "ValueReads.h"

#include "FunctionSequence.h"

#include "clang/AST/Expr.h"

namespace placelint::analysis {

using namespace clang;

bool ValueReads::isReadAfter(const VarDecl &Var, const Expr &E,
                             const FunctionSequence &Sequence) const {
  // Past a new value given to Var, what is read is that value.
  auto NewValue = [&](const Stmt &S) { return givesNewValue(Var, S, Sequence); };
  return llvm::any_of(usesOf(Var), [&](const DeclRefExpr *Use) {
    return !isAssignmentTarget(*Use) && Sequence.reaches(E, *Use, NewValue);
  });
}

bool ValueReads::givesNewValue(const VarDecl &Var, const Stmt &S,
                               const FunctionSequence &Sequence) const {
  return replaces(S) == &Var || Sequence.declarationOf(Var) == &S;
}

} // namespace placelint::analysis
