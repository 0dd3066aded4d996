// placement-discarded-transfer: `t.to(dev);` as a statement, whose result,
// the moved tensor, is thrown away (docs/rules/placement-discarded-transfer.md).
#include "rules/Rules.h"

#include "ApiSpellings.h"
#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Inside a macro that tests for an exception (gtest's `ASSERT_THROW`,
// `EXPECT_NO_THROW`, PyTorch's `ASSERT_THROWS_WITH`): the call is there for
// what it throws, not for its result.
bool inExceptionAssertion(const Expr &Call, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  for (SourceLocation At = Call.getBeginLoc(); At.isMacroID();
       At = SM.getImmediateMacroCallerLoc(At))
    if (hasApiName(ApiNameRole::ThrowMacro,
                   Lexer::getImmediateMacroName(At, SM, Context.getLangOpts())))
      return true;
  return false;
}

// `to(options)` whose options name no device (`TensorOptions().requires_grad(
// false)`): it places nothing, so nothing was meant to move.
bool placesNothing(const CXXMemberCallExpr &Call, const FunctionFacts &Facts) {
  if (explicitArgCount(Call) != 1 ||
      Facts.body().model().classify(Call.getArg(0)->getType()) != ValueKind::TensorOptions)
    return false;
  const ValueFact *Options = Facts.factAt(Call.getArg(0));
  return Options && Options->OptionsWithoutDevice;
}

// Whether Var is read after Call, so that keeping the moved tensor in it
// (`v = v.to(dev);`) changes what is read (in a loop, a read on the next
// iteration counts).
bool readAfter(const VarDecl &Var, const CXXMemberCallExpr &Call, const FunctionFacts &Facts) {
  return Facts.body().isReadAfter(Var, Call, Facts.sequence());
}

} // namespace

void diagnoseDiscardedTransfer(const FunctionFacts &Facts, FindingsHandler &Handler) {
  const ASTContext &Context = Facts.function().getASTContext();
  for (const CXXMemberCallExpr *Call : Facts.body().discardedTransfers()) {
    if (inExceptionAssertion(*Call, Context) || placesNothing(*Call, Facts))
      continue;
    DiscardedTransferFinding Finding;
    Finding.Call = Call;
    Finding.Receiver = Call->getImplicitObjectArgument();
    Finding.Method = Call->getMethodDecl()->getName().str();
    // `v = v.to(dev);` is the fix when v is a plain local that can take it.
    // Not for a by-value parameter the function reads no more: its caller
    // expected the move, which no fix-it here can give it.
    const auto *Ref = dyn_cast<DeclRefExpr>(Finding.Receiver->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Finding.ReceiverIsAssignable = Var && Var->hasLocalStorage() &&
                                   !Var->getType()->isReferenceType() &&
                                   !Var->getType().isConstQualified() &&
                                   (!isa<ParmVarDecl>(Var) || readAfter(*Var, *Call, Facts));
    Handler.onDiscardedTransfer(Finding);
  }
}

} // namespace placelint::analysis
