// placement-discarded-transfer: `t.to(dev);` as a statement, whose result,
// the moved tensor, is thrown away (docs/rules/placement-discarded-transfer.md).
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

void diagnoseDiscardedTransfer(const FunctionFacts &Facts, FindingsHandler &Handler) {
  for (const CXXMemberCallExpr *Call : Facts.body().discardedTransfers()) {
    DiscardedTransferFinding Finding;
    Finding.Call = Call;
    Finding.Receiver = Call->getImplicitObjectArgument();
    Finding.Method = Call->getMethodDecl()->getName().str();
    // `v = v.to(dev);` is the fix when v is a plain local that can take it.
    const auto *Ref = dyn_cast<DeclRefExpr>(Finding.Receiver->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Finding.ReceiverIsAssignable = Var && Var->hasLocalStorage() &&
                                   !Var->getType()->isReferenceType() &&
                                   !Var->getType().isConstQualified();
    Handler.onDiscardedTransfer(Finding);
  }
}

} // namespace placelint::analysis
