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

namespace {

// How many variables a tensor is handed through (`b = std::move(a)`) before
// its first use is no longer followed back.
constexpr unsigned kMaxHandOffs = 4;

// `t.options()` or `t.device()` on the tensor E.
const CXXMemberCallExpr *optionsRead(const Expr &E, const FunctionSequence &Sequence,
                                     const ApiModel &Model) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(Sequence.user(E));
  const auto *Read = Member ? dyn_cast_or_null<CXXMemberCallExpr>(Sequence.parent(*Member))
                            : nullptr;
  if (!Read)
    return nullptr;
  CallKind Kind = Model.classifyCall(*Read).Kind;
  return Kind == CallKind::OptionsOf || Kind == CallKind::DeviceOf ? Read : nullptr;
}

// Whether the tensor Move makes is used only to read its options or device:
// chained on the move, or through the variable the move initialises.
bool onlyForOptions(const CXXMemberCallExpr &Move, const FunctionFacts &Facts,
                    const CXXMemberCallExpr *&Chained) {
  const FunctionSequence &Sequence = Facts.sequence();
  const ApiModel &Model = Facts.body().model();
  Chained = optionsRead(Move, Sequence, Model);
  if (Chained)
    return true;
  const auto *Declaration = dyn_cast_or_null<DeclStmt>(Sequence.user(Move));
  const auto *Var = Declaration && Declaration->isSingleDecl()
                        ? dyn_cast<VarDecl>(Declaration->getSingleDecl())
                        : nullptr;
  if (!Var || stripCopies(Var->getInit())->IgnoreParenImpCasts() != &Move)
    return false;
  llvm::ArrayRef<const DeclRefExpr *> Uses = Facts.body().usesOf(*Var);
  return !Uses.empty() && llvm::all_of(Uses, [&](const DeclRefExpr *Use) {
    return optionsRead(*Use, Sequence, Model) != nullptr;
  });
}

// The assignment `v = v.to(device)` whose right side is Move, or null.
const Expr *assignmentBack(const CXXMemberCallExpr &Move, const VarDecl &Var,
                           const FunctionFacts &Facts) {
  const Stmt *User = Facts.sequence().user(Move);
  return User && Facts.body().replaces(*User) == &Var ? cast<Expr>(User) : nullptr;
}

// The statement `v = v.to(device);` of its own, whose right side is Move, or
// null.
const Stmt *statementBack(const CXXMemberCallExpr &Move, const VarDecl &Var,
                          const FunctionFacts &Facts) {
  const FunctionSequence &Sequence = Facts.sequence();
  const Stmt *Statement = assignmentBack(Move, Var, Facts);
  if (!Statement)
    return nullptr;
  while (isa_and_nonnull<ExprWithCleanups>(Sequence.parent(*Statement)))
    Statement = Sequence.parent(*Statement);
  return isa_and_nonnull<CompoundStmt>(Sequence.parent(*Statement)) ? Statement : nullptr;
}

// The write that gave Var Factory's tensor (its declaration or an
// assignment) and reaches Ref, a use of Var, when Ref is the first use since
// on every path to it (a path that skips the move may use the host tensor:
// then the finding has no fix); the latest such write in control-flow
// order; else null.
const Stmt *writeBeforeFirstUse(const VarDecl &Var, const DeclRefExpr &Ref,
                                const CallExpr &Factory, const FunctionFacts &Facts,
                                unsigned Depth = 0) {
  if (!Var.isLocalVarDecl() || Depth > kMaxHandOffs)
    return nullptr;
  BodyFacts &Body = Facts.body();
  const FunctionSequence &Sequence = Facts.sequence();
  const Stmt *Declaration = Sequence.declarationOf(Var);
  auto NewValue = [&](const Stmt &S) { return Body.givesNewValue(Var, S, Sequence); };
  auto MadeIt = [&](const Expr *Value) {
    const ValueFact *Fact = Value ? Facts.factAt(stripCopies(Value)) : nullptr;
    if (!Fact || Facts.hostFactoryThatMade(*Fact) != &Factory)
      return false;
    // Handed over from another variable (`auto b = std::move(a);`, a copy
    // of the handle): the tensor was first a's, whose uses count too.
    const auto *From = dyn_cast<DeclRefExpr>(stripCopies(Value)->IgnoreParenImpCasts());
    const auto *Previous = From ? dyn_cast<VarDecl>(From->getDecl()) : nullptr;
    return !Previous || Previous == &Var ||
           writeBeforeFirstUse(*Previous, *From, Factory, Facts, Depth + 1);
  };
  llvm::SmallVector<const Stmt *, 2> Writes;
  if (Declaration && MadeIt(Var.getInit()))
    Writes.push_back(Declaration);
  for (const Expr *Value : Body.assignmentsTo(Var))
    if (const Stmt *Assignment = Sequence.user(*Value);
        Assignment && Body.replaces(*Assignment) == &Var && MadeIt(Value))
      Writes.push_back(Assignment);
  const Stmt *Latest = nullptr;
  for (const Stmt *Write : Writes) {
    if (!Sequence.reaches(*Write, Ref, NewValue))
      continue;
    bool UsedBetween = llvm::any_of(Body.usesOf(Var), [&](const DeclRefExpr *Use) {
      return Use != &Ref && !Body.isAssignmentTarget(*Use) &&
             Sequence.reaches(*Write, *Use, NewValue) && Sequence.reaches(*Use, Ref, NewValue);
    });
    if (UsedBetween)
      return nullptr;
    if (!Latest || Sequence.isEarlier(*Latest, *Write))
      Latest = Write;
  }
  return Latest;
}

// For a field of the object moved back into itself (`f = f.to(d);`), the
// statement just before it in its block when that one stores Factory's
// tensor into the same field (`f = torch::zeros(...);`): nothing reads the
// field between two consecutive statements. Sets MovesBack to the move's
// statement. Else null.
const Stmt *fieldWriteJustBefore(const FieldDecl &Field, const CXXMemberCallExpr &Move,
                                 const CallExpr &Factory, const FunctionFacts &Facts,
                                 const Stmt *&MovesBack) {
  const FunctionSequence &Sequence = Facts.sequence();
  // `f = value` (a tensor's operator=), with its statement and block.
  auto AssignsField = [&](const Stmt *S) -> const Expr * {
    if (const auto *Full = dyn_cast_or_null<ExprWithCleanups>(S))
      S = Full->getSubExpr();
    const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(S);
    if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2 ||
        trackedDecl(Assign->getArg(0)) != &Field)
      return nullptr;
    return Assign->getArg(1);
  };
  const Stmt *Statement = Sequence.user(Move);
  if (!Statement || !AssignsField(Statement))
    return nullptr;
  while (isa_and_nonnull<ExprWithCleanups>(Sequence.parent(*Statement)))
    Statement = Sequence.parent(*Statement);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Sequence.parent(*Statement));
  if (!Block)
    return nullptr;
  const Stmt *Previous = nullptr;
  for (const Stmt *Child : Block->body()) {
    if (Child == Statement)
      break;
    Previous = Child;
  }
  const Expr *Stored = AssignsField(Previous);
  if (!Stored || stripCopies(Stored)->IgnoreParenImpCasts() != &Factory)
    return nullptr;
  MovesBack = Statement;
  return Previous;
}

// Whether Var is read after Move other than through the moved value: the
// host tensor is still needed (`at::add(a.to(kMeta), b.to(kMeta))`, then `a`
// on the host), so it was not made only to be moved.
bool readAfterMove(const VarDecl &Var, const CXXMemberCallExpr &Move, bool AssignedBack,
                   const FunctionFacts &Facts) {
  // `v = v.to(d)`: later reads are of the moved tensor.
  return !AssignedBack && Facts.body().isReadAfter(Var, Move, Facts.sequence());
}

} // namespace

namespace {

// The finding T is, if the tensor it moves was made on the host by a
// factory only to be moved at once.
std::optional<CreateThenMoveFinding> createThenMove(const FunctionFacts &Facts,
                                                    const Transfer &T) {
  BodyFacts &Body = Facts.body();
  // A factory in a helper of the unit serves the helper's other callers
  // too: what one caller then moves was not made only to be moved.
  bool MadeHere = &Facts.makerFacts(T.Source) == &Facts;
  const CallExpr *Factory =
      T.IsSync || T.IntoDestination || !MadeHere ? nullptr : Facts.hostFactoryThatMade(T.Source);
  // A move to the cpu moves nothing; one to a device not known here
  // (`to(x.device())`, `to(pick_device())`) may well move.
  bool ToHost = llvm::all_of(T.Target.devices(),
                             [](const AbstractDevice &D) { return D.isCpu(); });
  if (T.IsSync || !Factory || T.Target.isBottom() || (T.Target.isKnown() && ToHost))
    return std::nullopt;
  // A copy of a tensor that requires grad handed to the callers (returned,
  // stored in a field) may be a parameter where they use it: the
  // non-leaf-parameter finding there names the move, which rules.def says
  // subsumes this one; the callers' analyses cannot withdraw it from here.
  const AbstractValue &Handed = Facts.returned();
  auto HandsOn = [&](const ValueFact &Fact) { return Fact.MadeBy == T.Call && !Fact.MadeIn; };
  if (Facts.requiresGrad(T.Source) &&
      (HandsOn(Handed.Whole) || llvm::any_of(Facts.objectAtExit().Parts, [&](const auto &Part) {
         return HandsOn(Part.second);
       })))
    return std::nullopt;
  const Expr *Receiver = stripCopies(T.Call->getImplicitObjectArgument());
  const auto *Ref = dyn_cast<DeclRefExpr>(Receiver->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Through a reference to a variable (`const auto &r = v;`), v's tensor.
  if (Var)
    Var = dyn_cast<VarDecl>(&Body.namedVariable(*Var));
  // Through a variable, the move must be its first use since it got the
  // factory's tensor (not filled, loaded or read on the host in between);
  // through a field of the object, the statement before stored it;
  // chained, conversions between are fine (`ones({1}).to(kBool).cuda()`).
  const auto *Field = Var ? nullptr : dyn_cast_or_null<FieldDecl>(trackedDecl(Receiver));
  const Stmt *FieldMovesBack = nullptr;
  const Stmt *Write = Var     ? writeBeforeFirstUse(*Var, *Ref, *Factory, Facts)
                      : Field ? fieldWriteJustBefore(*Field, *T.Call, *Factory, Facts, FieldMovesBack)
                              : nullptr;
  if (Var || Field ? !Write : !findInTree(Receiver, [&](const Stmt &S) { return &S == Factory; }))
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
  Finding.OnlyForOptions = onlyForOptions(*T.Call, Facts, Finding.ChainedOptions);
  Finding.ChainedReadsDevice =
      Finding.ChainedOptions &&
      Body.model().classifyCall(*Finding.ChainedOptions).Kind == CallKind::DeviceOf;
  if (Var) {
    Finding.MovesBack = statementBack(*T.Call, *Var, Facts);
    if (readAfterMove(*Var, *T.Call, assignmentBack(*T.Call, *Var, Facts), Facts))
      return std::nullopt;
  } else if (Field) {
    Finding.MovesBack = FieldMovesBack;
  }
  // Chained, the move is where the tensor is made.
  const FunctionDecl *Maker = Factory->getDirectCallee();
  // The fix makes the tensor on the device where it is made: the same
  // only when the move runs whenever the factory's tensor was stored.
  Finding.FixKeepsBehaviour = (!Var || Facts.sequence().alwaysReaches(*Write, *T.Call)) &&
                              !(Maker && ApiModel::drawsFromDeviceGenerator(*Maker));
  return Finding;
}

} // namespace

void diagnoseCreateThenMove(const FunctionFacts &Facts, FindingsHandler &Handler) {
  for (const Transfer &T : Facts.transfers())
    if (std::optional<CreateThenMoveFinding> Finding = createThenMove(Facts, T))
      Handler.onCreateThenMove(*Finding);
}

} // namespace placelint::analysis
