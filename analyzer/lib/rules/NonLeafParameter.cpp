// placement-non-leaf-parameter: a tensor made to require grad and then
// moved (`randn({n}, requires_grad()).to(device)`) is the move's copy, not
// a leaf; used as a parameter (given to an optimizer, its grad() read,
// registered) it never gets a gradient of its own
// (docs/rules/placement-non-leaf-parameter.md). Module::to moves
// parameters in place, so it makes no such copy.
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// How many requires_grad_() calls on a copy are looked through.
constexpr unsigned kMaxMarks = 4;

// The move whose copy Fact is, made in a function of the unit that this one
// called (a helper filling a list it takes by reference, a lambda, a
// method), of a value this function gave it (an argument, a capture, a
// field it set): the callee's analysis holds the move, but the maker of the
// value it moved is an expression of this function, which the callee's
// analysis cannot judge and this one can (whether it asked for
// requires_grad). requires_grad_() on the copy leaves it a copy.
const CXXMemberCallExpr *moveOfGivenValue(const FunctionFacts &Facts, const ValueFact &Fact) {
  const ValueFact *Copy = Facts.madeInCallee(Fact);
  Copy = Copy ? Copy : &Fact;
  const FunctionFacts &Home = Facts.makerFacts(*Copy);
  if (&Home == &Facts)
    return nullptr;
  for (unsigned Depth = 0; Copy && Depth < kMaxMarks; ++Depth) {
    ApiCall Api;
    const auto *Mark = dyn_cast_or_null<CXXMemberCallExpr>(Home.callThatMade(*Copy, Api));
    if (!Mark || Api.Kind != CallKind::MarkRequiresGrad)
      break;
    Copy = Home.factAt(Mark->getImplicitObjectArgument());
  }
  const Transfer *Move = Copy ? Home.transferThatMade(*Copy) : nullptr;
  if (!Move)
    return nullptr;
  const ValueFact &Moved = Move->Source;
  bool MadeHere = Moved.MadeBy && !Moved.MadeIn && !Home.factAt(Moved.MadeBy) &&
                  Facts.factAt(Moved.MadeBy);
  return MadeHere && Facts.requiresGrad(Moved) ? Move->Call : nullptr;
}

// The move whose non-leaf copy Fact is: made here or where it was made
// (nonLeafMove), or of a value this function gave a callee
// (moveOfGivenValue).
const CXXMemberCallExpr *moveBehind(const FunctionFacts &Facts, const ValueFact &Fact) {
  const CXXMemberCallExpr *Move = Facts.nonLeafMove(Fact);
  return Move ? Move : moveOfGivenValue(Facts, Fact);
}

// The values a function puts into its local list Var, for a use whose fact
// is their join: its initializer's elements and each push_back /
// emplace_back of one value. Nullopt when the list may change otherwise
// (assigned, an element written or changed in place, handed to code that
// may change it, its address taken, another non-const method called on it)
// or a value put in was not evaluated here (a lambda's push).
std::optional<llvm::SmallVector<const ValueFact *, 2>> putInto(const FunctionFacts &Facts,
                                                               const VarDecl &Var) {
  const BodyFacts &Body = Facts.body();
  const Stmt *Code = Facts.function().getBody();
  if (!Code || !Var.isLocalVarDecl() || Var.getType()->isReferenceType() ||
      Body.isEscaped(Var) || Body.changesIn(Var, *Code))
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Values;
  if (const Expr *Init = Var.getInit()) {
    const auto *Empty = dyn_cast<CXXConstructExpr>(Init);
    std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(Init);
    if (Elements)
      Values.append(Elements->begin(), Elements->end());
    else if (!Empty || Empty->getNumArgs() != 0)
      return std::nullopt;
  }
  bool Other = findInTree(Code, [&](const Stmt &S) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
    const auto *Object =
        Call ? dyn_cast_or_null<DeclRefExpr>(
                   Call->getImplicitObjectArgument()->IgnoreParenImpCasts())
             : nullptr;
    if (!Object || Object->getDecl() != &Var || Call->getMethodDecl()->isConst())
      return false;
    if (Body.model().classifyCall(*Call).Kind != CallKind::ListInsert ||
        Call->getNumArgs() != 1)
      return true;
    Values.push_back(Call->getArg(0));
    return false;
  }) != nullptr;
  if (Other)
    return std::nullopt;
  llvm::SmallVector<const ValueFact *, 2> Put;
  for (const Expr *Value : Values) {
    const ValueFact *Fact = Facts.factAt(stripCopies(Value)->IgnoreParenImpCasts());
    if (!Fact)
      return std::nullopt;
    Put.push_back(Fact);
  }
  return Put;
}

// The moves whose non-leaf copy the tensor of Use may be: the one that made
// its value, or, where paths that store different values into a local meet
// (the same move written in both branches of an `if`, or pushed into a
// list in both), each one stored, when every value stored there is such a
// copy.
llvm::SmallVector<const CXXMemberCallExpr *, 2>
nonLeafMoves(const FunctionFacts &Facts, const ParameterUse &Use) {
  if (const CXXMemberCallExpr *Move = moveBehind(Facts, Use.Fact))
    return {Move};
  llvm::SmallVector<const CXXMemberCallExpr *, 2> Moves;
  // A list whose elements the flow tracks apart (`return {a_, b_};` of a
  // method): each element is a tensor of its own, judged by its own maker.
  if (auto Parts = Use.Tensor ? Facts.expressionParts().find(Use.Tensor->IgnoreParenImpCasts())
                              : Facts.expressionParts().end();
      Parts != Facts.expressionParts().end()) {
    for (const auto &[Relative, Element] : Parts->second) {
      if (Relative.steps().size() != 1 || !Relative.steps().front().isPosition())
        continue;
      if (const CXXMemberCallExpr *Move = moveBehind(Facts, Element))
        Moves.push_back(Move);
    }
    if (!Moves.empty())
      return Moves;
  }
  const auto *Ref = Use.Tensor && !Use.Fact.MadeBy
                        ? dyn_cast<DeclRefExpr>(
                              stripCopies(Use.Tensor)->IgnoreParenImpCasts())
                        : nullptr;
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  bool IsList =
      Var && Facts.body().model().classify(Var->getType()) == ValueKind::TensorList;
  std::optional<llvm::SmallVector<const ValueFact *, 2>> Stored =
      !Var ? std::nullopt : IsList ? putInto(Facts, *Var) : Facts.storedInto(*Var);
  for (const ValueFact *Value :
       Stored ? *Stored : llvm::SmallVector<const ValueFact *, 2>()) {
    const CXXMemberCallExpr *Move = moveBehind(Facts, *Value);
    if (!Move)
      return {};
    Moves.push_back(Move);
  }
  return Moves;
}

} // namespace

void diagnoseNonLeafParameter(const FunctionFacts &Facts,
                              FindingsHandler &Handler) {
  // One finding a move: at the first place its copy is used as a parameter.
  llvm::DenseSet<const Expr *> Reported;
  for (const ParameterUse &Use : Facts.parameterUses())
    for (const CXXMemberCallExpr *Move : nonLeafMoves(Facts, Use)) {
      if (!Reported.insert(Move).second)
        continue;
      NonLeafParameterFinding Finding;
      Finding.Use = Use.Where;
      Finding.Tensor = Use.Tensor;
      Finding.Kind = Use.Kind;
      Finding.Move = Move;
      const Expr *Receiver =
          Move->getImplicitObjectArgument()->IgnoreParenImpCasts();
      if (const auto *Factory = dyn_cast<CallExpr>(Receiver);
          Factory && !isa<CXXMemberCallExpr>(Factory))
        Finding.Factory = Factory;
      Handler.onNonLeafParameter(Finding);
    }
}

} // namespace placelint::analysis
