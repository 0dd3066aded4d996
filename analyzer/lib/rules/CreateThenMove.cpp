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
#include "clang/AST/ParentMap.h"

#include <memory>

namespace placelint::analysis {

using namespace clang;

namespace {

// The expression that uses E's value, past conversions and temporaries.
const Stmt *userOf(const Expr &E, const ParentMap &Parents) {
  const Stmt *User = Parents.getParent(&E);
  while (User && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                      CXXBindTemporaryExpr, ExprWithCleanups>(User) ||
                  (isa<CXXConstructExpr>(User) && cast<CXXConstructExpr>(User)->getNumArgs() == 1)))
    User = Parents.getParent(User);
  return User;
}

// `t.options()` or `t.device()` on the tensor E.
const CXXMemberCallExpr *optionsRead(const Expr &E, const ParentMap &Parents) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(userOf(E, Parents));
  const auto *Method = Member ? dyn_cast<CXXMethodDecl>(Member->getMemberDecl()) : nullptr;
  if (!Method || !Method->getIdentifier() ||
      (Method->getName() != "options" && Method->getName() != "device"))
    return nullptr;
  return dyn_cast_or_null<CXXMemberCallExpr>(Parents.getParent(Member));
}

// Whether the tensor Move makes is used only to read its options or device:
// chained on the move, or through the variable the move initialises.
bool onlyForOptions(const CXXMemberCallExpr &Move, const ParentMap &Parents,
                    const Stmt &Body, const CXXMemberCallExpr *&Chained) {
  Chained = optionsRead(Move, Parents);
  if (Chained)
    return true;
  const auto *Declaration = dyn_cast_or_null<DeclStmt>(userOf(Move, Parents));
  const auto *Var = Declaration && Declaration->isSingleDecl()
                        ? dyn_cast<VarDecl>(Declaration->getSingleDecl())
                        : nullptr;
  if (!Var || stripCopies(Var->getInit())->IgnoreParenImpCasts() != &Move)
    return false;
  bool Used = false;
  bool OtherUse = findInTree(&Body, [&](const Stmt &S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(&S);
    if (!Ref || Ref->getDecl() != Var)
      return false;
    Used = true;
    return optionsRead(*Ref, Parents) == nullptr;
  });
  return Used && !OtherUse;
}

} // namespace

void diagnoseCreateThenMove(const FunctionFacts &Facts, FindingsHandler &Handler) {
  BodyFacts &Body = Facts.body();
  std::unique_ptr<ParentMap> Parents; // built for the first finding
  for (const Transfer &T : Facts.transfers()) {
    const auto *Factory = dyn_cast_or_null<CallExpr>(T.Source.HostFactory);
    std::optional<AbstractDevice> To = T.Target.single();
    // A move to the cpu, or a dtype-only to(), moves nothing.
    if (T.IsSync || !Factory || !To || To->isCpu() || isNonLeafParameterMove(Facts, *T.Call))
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
    Stmt *FunctionBody = Facts.function().getBody();
    if (!Parents)
      Parents = std::make_unique<ParentMap>(FunctionBody);
    Finding.OnlyForOptions =
        onlyForOptions(*T.Call, *Parents, *FunctionBody, Finding.ChainedOptions);
    Handler.onCreateThenMove(Finding);
  }
}

} // namespace placelint::analysis
