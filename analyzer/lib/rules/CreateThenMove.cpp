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
#include "clang/Basic/SourceManager.h"

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
const CXXMemberCallExpr *optionsRead(const Expr &E, const ParentMap &Parents,
                                     const ApiModel &Model) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(userOf(E, Parents));
  const auto *Read = Member ? dyn_cast_or_null<CXXMemberCallExpr>(Parents.getParent(Member))
                            : nullptr;
  if (!Read)
    return nullptr;
  CallKind Kind = Model.classifyCall(*Read).Kind;
  return Kind == CallKind::OptionsOf || Kind == CallKind::DeviceOf ? Read : nullptr;
}

// Whether the tensor Move makes is used only to read its options or device:
// chained on the move, or through the variable the move initialises.
bool onlyForOptions(const CXXMemberCallExpr &Move, const ParentMap &Parents,
                    const Stmt &Body, const ApiModel &Model,
                    const CXXMemberCallExpr *&Chained) {
  Chained = optionsRead(Move, Parents, Model);
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
    return optionsRead(*Ref, Parents, Model) == nullptr;
  });
  return Used && !OtherUse;
}

// The assignment `v = v.to(device)` whose right side is Move, or null.
const Expr *assignmentBack(const CXXMemberCallExpr &Move, const VarDecl &Var,
                           const ParentMap &Parents) {
  const Stmt *User = userOf(Move, Parents);
  const Expr *Target = nullptr;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    Target = Op->getArg(0);
  else if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(User);
           Binary && Binary->getOpcode() == BO_Assign)
    Target = Binary->getLHS();
  const auto *Ref = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  return Ref && Ref->getDecl() == &Var ? cast<Expr>(User) : nullptr;
}

// The statement `v = v.to(device);` of its own, whose right side is Move, or
// null.
const Stmt *statementBack(const CXXMemberCallExpr &Move, const VarDecl &Var,
                          const ParentMap &Parents) {
  const Stmt *Statement = assignmentBack(Move, Var, Parents);
  if (!Statement)
    return nullptr;
  while (isa_and_nonnull<ExprWithCleanups>(Parents.getParent(Statement)))
    Statement = Parents.getParent(Statement);
  return isa_and_nonnull<CompoundStmt>(Parents.getParent(Statement)) ? Statement : nullptr;
}

// The write that gave Var Factory's tensor (its initializer or an
// assignment), if Ref, a use of Var, is the first use since; else null.
const Expr *writeBeforeFirstUse(const VarDecl &Var, const DeclRefExpr &Ref,
                                const CallExpr &Factory, const FunctionFacts &Facts) {
  if (!Var.isLocalVarDecl())
    return nullptr;
  BodyFacts &Body = Facts.body();
  const SourceManager &SM = Facts.function().getASTContext().getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  };
  auto MadeIt = [&](const Expr *Value) {
    const ValueFact *Fact = Value ? Facts.factAt(stripCopies(Value)) : nullptr;
    return Fact && Facts.hostFactoryThatMade(*Fact) == &Factory;
  };
  // The last write before Ref that stored the factory's tensor.
  const Expr *Write = MadeIt(Var.getInit()) ? Var.getInit() : nullptr;
  for (const Expr *Value : Body.assignmentsTo(Var))
    if (MadeIt(Value) && Before(Value->getEndLoc(), Ref.getBeginLoc()))
      Write = Value;
  if (!Write)
    return nullptr;
  for (const DeclRefExpr *Use : Body.usesOf(Var))
    if (Before(Write->getEndLoc(), Use->getBeginLoc()) && !Body.isAssignmentTarget(*Use))
      return Use == &Ref ? Write : nullptr;
  return nullptr;
}

// Whether Var is read after Move other than through the moved value: the
// host tensor is still needed (`at::add(a.to(kMeta), b.to(kMeta))`, then `a`
// on the host), so it was not made only to be moved.
bool readAfterMove(const VarDecl &Var, const CXXMemberCallExpr &Move, bool AssignedBack,
                   const FunctionFacts &Facts) {
  // `v = v.to(d)`: later reads are of the moved tensor.
  return !AssignedBack && Facts.body().isReadAfter(Var, Move);
}

// Whether Move runs on every path from Write, in the same block: no branch,
// loop, lambda or handler encloses Move below the block holding Write, and
// no return, break, continue or throw lies between them.
bool onEveryPathFrom(const Expr &Write, const CXXMemberCallExpr &Move, const ParentMap &Parents,
                     const FunctionFacts &Facts) {
  const Stmt *Block = Parents.getParent(&Write);
  while (Block && !isa<CompoundStmt>(Block))
    Block = Parents.getParent(Block);
  if (!Block)
    return false;
  for (const Stmt *Up = Parents.getParent(&Move); Up != Block; Up = Parents.getParent(Up)) {
    if (!Up || isa<IfStmt, SwitchStmt, ConditionalOperator, BinaryConditionalOperator, ForStmt,
                   WhileStmt, DoStmt, CXXForRangeStmt, CXXTryStmt, CXXCatchStmt, LambdaExpr>(Up))
      return false;
    if (const auto *Logical = dyn_cast<BinaryOperator>(Up); Logical && Logical->isLogicalOp())
      return false;
  }
  const SourceManager &SM = Facts.function().getASTContext().getSourceManager();
  SourceLocation From = SM.getExpansionLoc(Write.getEndLoc());
  SourceLocation To = SM.getExpansionLoc(Move.getBeginLoc());
  return !findInTree(Block, [&](const Stmt &S) {
    if (!isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S))
      return false;
    SourceLocation At = SM.getExpansionLoc(S.getBeginLoc());
    return SM.isBeforeInTranslationUnit(From, At) && SM.isBeforeInTranslationUnit(At, To);
  });
}

} // namespace

namespace {

// The finding T is, if the tensor it moves was made on the host by a
// factory only to be moved at once.
std::optional<CreateThenMoveFinding> createThenMove(const FunctionFacts &Facts, const Transfer &T,
                                                    std::unique_ptr<ParentMap> &Parents) {
  BodyFacts &Body = Facts.body();
  const CallExpr *Factory = T.IsSync ? nullptr : Facts.hostFactoryThatMade(T.Source);
  // A move to the cpu moves nothing; one to a device not known here
  // (`to(x.device())`, `to(pick_device())`) may well move.
  bool ToHost = llvm::all_of(T.Target.devices(),
                             [](const AbstractDevice &D) { return D.isCpu(); });
  if (T.IsSync || !Factory || T.Target.isBottom() || (T.Target.isKnown() && ToHost) ||
      isNonLeafParameterMove(Facts, *T.Call))
    return std::nullopt;
  // One bug, one report: a move whose result is thrown away is
  // placement-discarded-transfer's; once fixed, this may apply.
  if (llvm::is_contained(Body.discardedTransfers(), T.Call))
    return std::nullopt;
  const Expr *Receiver = stripCopies(T.Call->getImplicitObjectArgument());
  const auto *Ref = dyn_cast<DeclRefExpr>(Receiver->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Through a variable, the move must be its first use since it got the
  // factory's tensor (not filled, loaded or read on the host in between);
  // chained, conversions between are fine (`ones({1}).to(kBool).cuda()`).
  const Expr *Write = Var ? writeBeforeFirstUse(*Var, *Ref, *Factory, Facts) : nullptr;
  if (Var ? !Write : !findInTree(Receiver, [&](const Stmt &S) { return &S == Factory; }))
    return std::nullopt;
  CreateThenMoveFinding Finding;
  Finding.Factory = Factory;
  Finding.Move = T.Call;
  Finding.Receiver = Receiver;
  Finding.Target = T.Target;
  // A tensor made before a loop and moved in it is moved again on every
  // iteration: placement-transfer-in-loop's (hoist the move), not this.
  const Stmt *Loop = Body.loopAround(*T.Call);
  if (Loop && !findInTree(Loop, [&](const Stmt &S) { return &S == Factory; }))
    return std::nullopt;
  Finding.Loop = Loop;
  Finding.Hoistable =
      Finding.Loop && llvm::all_of(Factory->arguments(), [&](const Expr *Arg) {
        return Body.isInvariantIn(*Arg, *Finding.Loop);
      });
  Stmt *FunctionBody = Facts.function().getBody();
  if (!Parents)
    Parents = std::make_unique<ParentMap>(FunctionBody);
  Finding.OnlyForOptions =
      onlyForOptions(*T.Call, *Parents, *FunctionBody, Body.model(), Finding.ChainedOptions);
  Finding.ChainedReadsDevice =
      Finding.ChainedOptions &&
      Body.model().classifyCall(*Finding.ChainedOptions).Kind == CallKind::DeviceOf;
  if (Var) {
    Finding.MovesBack = statementBack(*T.Call, *Var, *Parents);
    if (readAfterMove(*Var, *T.Call, assignmentBack(*T.Call, *Var, *Parents), Facts))
      return std::nullopt;
  }
  // Chained, the move is where the tensor is made.
  const FunctionDecl *Maker = Factory->getDirectCallee();
  Finding.FixKeepsBehaviour = (!Var || onEveryPathFrom(*Write, *T.Call, *Parents, Facts)) &&
                              !(Maker && ApiModel::drawsFromDeviceGenerator(*Maker));
  return Finding;
}

} // namespace

void diagnoseCreateThenMove(const FunctionFacts &Facts, FindingsHandler &Handler) {
  std::unique_ptr<ParentMap> Parents; // built for the first finding
  for (const Transfer &T : Facts.transfers())
    if (std::optional<CreateThenMoveFinding> Finding = createThenMove(Facts, T, Parents))
      Handler.onCreateThenMove(*Finding);
}

bool isCreateThenMove(const FunctionFacts &Facts, const Transfer &T) {
  std::unique_ptr<ParentMap> Parents;
  return createThenMove(Facts, T, Parents).has_value();
}

} // namespace placelint::analysis
