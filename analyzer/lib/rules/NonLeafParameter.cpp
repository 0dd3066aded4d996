// placement-non-leaf-parameter: a tensor made to require grad and then
// moved (`randn({n}, requires_grad()).to(device)`) is the move's copy, not
// a leaf; used as a parameter (given to an optimizer, its grad() read,
// registered) it never gets a gradient of its own
// (docs/rules/placement-non-leaf-parameter.md). Module::to moves
// parameters in place, so it makes no such copy.
#include "rules/Rules.h"

#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace placelint::analysis {

using namespace clang;

void diagnoseNonLeafParameter(const FunctionFacts &Facts, FindingsHandler &Handler) {
  // One finding a move: at the first place its copy is used as a parameter.
  llvm::DenseSet<const Expr *> Reported;
  for (const ParameterUse &Use : Facts.parameterUses()) {
    const CXXMemberCallExpr *Move = Facts.nonLeafMove(Use.Fact);
    if (!Move || !Reported.insert(Move).second)
      continue;
    NonLeafParameterFinding Finding;
    Finding.Use = Use.Where;
    Finding.Tensor = Use.Tensor;
    Finding.Kind = Use.Kind;
    Finding.Move = Move;
    const Expr *Receiver = Move->getImplicitObjectArgument()->IgnoreParenImpCasts();
    if (const auto *Factory = dyn_cast<CallExpr>(Receiver);
        Factory && !isa<CXXMemberCallExpr>(Factory))
      Finding.Factory = Factory;
    Handler.onNonLeafParameter(Finding);
  }
}

} // namespace placelint::analysis
