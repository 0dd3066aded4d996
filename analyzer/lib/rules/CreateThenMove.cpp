// placement-create-then-move: a factory builds a tensor on the host (no
// device given) and its first use is a move to a device: chained
// (`zeros({n}).to(device)`) or through a variable
// (docs/rules/placement-create-then-move.md).
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

void diagnoseCreateThenMove(const FunctionFacts &Facts, FindingsHandler &Handler) {
  BodyFacts &Body = Facts.body();
  for (const Transfer &T : Facts.transfers()) {
    const auto *Factory = dyn_cast_or_null<CallExpr>(T.Source.HostFactory);
    std::optional<AbstractDevice> To = T.Target.single();
    // A move to the cpu, or a dtype-only to(), moves nothing.
    if (T.IsSync || !Factory || !To || To->isCpu())
      continue;
    const Expr *Receiver = stripCopies(T.Call->getImplicitObjectArgument());
    if (Receiver->IgnoreParenImpCasts() != Factory) {
      // Through a variable: the move must be its first use (not filled,
      // loaded or read on the host in between).
      const auto *Ref = dyn_cast<DeclRefExpr>(Receiver->IgnoreParenImpCasts());
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (!Var || !Var->isLocalVarDecl() || Body.firstUseOf(*Var) != Ref ||
          stripCopies(Var->getInit())->IgnoreParenImpCasts() != Factory)
        continue;
    }
    CreateThenMoveFinding Finding;
    Finding.Factory = Factory;
    Finding.Move = T.Call;
    Finding.Receiver = Receiver;
    Finding.Target = T.Target;
    // A tensor made before a loop and moved in it is moved again on every
    // iteration: placement-transfer-in-loop's (hoist the move), not this.
    const Stmt *Loop = Body.loopAround(*T.Call);
    const auto *Ref = dyn_cast<DeclRefExpr>(Receiver->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Loop && Var && !Body.isDeclaredIn(*Var, *Loop))
      continue;
    Finding.Loop = Loop;
    Finding.Hoistable =
        Finding.Loop && llvm::all_of(Factory->arguments(), [&](const Expr *Arg) {
          return Body.isInvariantIn(*Arg, *Finding.Loop);
        });
    Handler.onCreateThenMove(Finding);
  }
}

} // namespace placelint::analysis
