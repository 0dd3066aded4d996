#include "flow/AvailabilityGuards.h"

#include "ApiSpellings.h"
#include "Syntax.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace placelint::analysis {

using namespace clang;

namespace {

// A bool whose value is the caller's: a parameter by value or by const
// reference (`const bool& use_cuda`), which the callee cannot change.
bool isCallersFlag(const ParmVarDecl &Parameter) {
  QualType Type = Parameter.getType();
  if (Type->isReferenceType()) {
    Type = Type.getNonReferenceType();
    if (!Type.isConstQualified())
      return false;
  }
  return Type->isBooleanType();
}

// The flag E tests whose value the callers give: a bool parameter
// (isCallersFlag) or a bool field of `this`; else null.
const ValueDecl *callersFlag(const Expr *E) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E)) {
    const auto *Parameter = dyn_cast<ParmVarDecl>(Ref->getDecl());
    return Parameter && isCallersFlag(*Parameter) ? Parameter : nullptr;
  }
  const auto *Member = dyn_cast_or_null<MemberExpr>(E);
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  if (!Field || !Field->getType()->isBooleanType() ||
      !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return Field;
}

// What a condition says about CUDA devices: being true (Polarity +1) or
// false (-1) means that at least Devices of them are there.
struct Availability {
  int Polarity = 0;
  unsigned Devices = 0;

  explicit operator bool() const { return Polarity != 0 && Devices > 0; }
};

Availability ensures(int Polarity, std::int64_t Devices) {
  if (Devices <= 0)
    return {};
  return {Polarity, static_cast<unsigned>(std::min<std::int64_t>(Devices, 1u << 15))};
}

BinaryOperatorKind mirrored(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT: return BO_GT;
  case BO_GT: return BO_LT;
  case BO_LE: return BO_GE;
  case BO_GE: return BO_LE;
  default: return Op;
  }
}

} // namespace

// Reads the conditions of one function's branches.
class ConditionReader {
public:
  ConditionReader(const ApiModel &Model, const ASTContext &Context, const CFG &Graph)
      : Model(Model), Context(Context) {
    // A variable holding a check's value keeps meaning it only while it is
    // not assigned again.
    for (const CFGBlock *Block : Graph)
      for (const CFGElement &Element : *Block)
        if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
          noteAssignment(*S->getStmt());
  }

  Availability read(const Expr *E) const {
    if (!E)
      return {};
    E = E->IgnoreParenImpCasts();
    if (checkIn(E)) // a count in a boolean context is "not zero"
      return {1, 1};
    if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot) {
      Availability Inner = read(Not->getSubExpr());
      return {-Inner.Polarity, Inner.Devices};
    }
    // TORCH_CHECK's __builtin_expect(!(cond), 0).
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Call->getBuiltinCallee() && Call->getNumArgs() >= 1)
      return read(Call->getArg(0));
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return read(Cast->getSubExpr());
    if (const auto *Binary = dyn_cast<BinaryOperator>(E))
      return readBinary(*Binary);
    if (const auto *Compare = dyn_cast<CXXOperatorCallExpr>(E);
        Compare && Compare->getNumArgs() == 2 &&
        (Compare->getOperator() == OO_EqualEqual || Compare->getOperator() == OO_ExclaimEqual))
      return callersCuda(Compare->getOperator() == OO_EqualEqual ? BO_EQ : BO_NE,
                         Compare->getArg(0), Compare->getArg(1));
    // `t.is_cuda()` on a tensor the caller gave: there is a GPU wherever
    // the caller has a tensor on one.
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
        Call && Call->getNumArgs() == 0 && Call->getMethodDecl() &&
        Call->getMethodDecl()->getIdentifier() &&
        Model.classifyCall(*Call).Kind == CallKind::Metadata &&
        hasApiName(ApiNameRole::CudaTest, Call->getMethodDecl()->getName()) &&
        isCallers(Call->getImplicitObjectArgument()))
      return {1, 1};
    // A flag set once from a condition: `const bool use_cuda = !no_cuda &&
    // cuda::is_available();` then `if (use_cuda)`.
    if (const VarDecl *Flag = unchangedLocal(E); Flag && Flag->getType()->isBooleanType() &&
                                                 Depth < kMaxFlagDepth) {
      ++Depth;
      Availability Says = read(Flag->getInit());
      --Depth;
      return Says;
    }
    return {};
  }

private:
  Availability readBinary(const BinaryOperator &Binary) const {
    BinaryOperatorKind Op = Binary.getOpcode();
    if (Op == BO_LAnd || Op == BO_LOr) {
      // `&&` being true makes both sides true, `||` being false both false:
      // what either side says on that edge holds.
      int Edge = Op == BO_LAnd ? 1 : -1;
      Availability Left = read(Binary.getLHS()), Right = read(Binary.getRHS());
      unsigned Devices = 0;
      for (const Availability &Side : {Left, Right})
        if (Side.Polarity == Edge)
          Devices = std::max(Devices, Side.Devices);
      return ensures(Edge, Devices);
    }
    if (!Binary.isComparisonOp())
      return {};
    const Expr *Left = Binary.getLHS()->IgnoreParenImpCasts();
    const Expr *Right = Binary.getRHS()->IgnoreParenImpCasts();
    if (Availability Chosen = callersCuda(Op, Left, Right))
      return Chosen;
    std::optional<AvailabilityKind> Kind = checkIn(Left);
    if (!Kind) {
      Kind = checkIn(Right);
      std::swap(Left, Right);
      Op = mirrored(Op);
    }
    std::optional<std::int64_t> Bound = constant(Right);
    if (!Kind || *Kind == AvailabilityKind::Flag) {
      // `is_available() == false`, `has_gpu != true`.
      Availability Flag = read(Left);
      if (!Flag || !Bound || (Op != BO_EQ && Op != BO_NE))
        return {};
      bool SameSense = (*Bound != 0) == (Op == BO_EQ);
      return {SameSense ? Flag.Polarity : -Flag.Polarity, Flag.Devices};
    }
    // count OP bound. An unknown bound (`i < device_count()`, read as
    // `device_count() > i`) still means one device at least.
    switch (Op) {
    case BO_GT:
      return ensures(1, Bound ? *Bound + 1 : 1);
    case BO_GE:
      return ensures(1, Bound ? *Bound : 1);
    case BO_LT:
      return ensures(-1, Bound ? *Bound : 1);
    case BO_LE:
      return ensures(-1, Bound ? *Bound + 1 : 1);
    case BO_EQ:
      if (!Bound)
        return {};
      return *Bound == 0 ? ensures(-1, 1) : ensures(1, *Bound);
    case BO_NE:
      return Bound && *Bound == 0 ? ensures(1, 1) : Availability{};
    default:
      return {};
    }
  }

  // `options.device() == kCUDA` on options the caller gave: CUDA is asked
  // for where the caller already chose it.
  Availability callersCuda(BinaryOperatorKind Op, const Expr *Left, const Expr *Right) const {
    if ((Op != BO_EQ && Op != BO_NE) ||
        !((isCallersDevice(Left) && isCudaConstant(Right)) ||
          (isCallersDevice(Right) && isCudaConstant(Left))))
      return {};
    return ensures(Op == BO_EQ ? 1 : -1, 1);
  }

  // A value of the caller's: a parameter or a part of one.
  static bool isCallers(const Expr *E) { return isa_and_nonnull<ParmVarDecl>(rootDecl(E)); }

  // The device of a value of the caller's: `options.device()`,
  // `t.device()`, `dev`, `dev.type()`.
  bool isCallersDevice(const Expr *E) const {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    ValueKind Kind = Model.classify(E->getType());
    if (Kind != ValueKind::Device && Kind != ValueKind::DeviceType)
      return false;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
      return Call->getNumArgs() == 0 && isCallers(Call->getImplicitObjectArgument());
    return isCallers(E);
  }

  // `kCUDA` (an enumerator or a constant holding one), also as the Device
  // it converts to (`Device(kCUDA, -1)`).
  bool isCudaConstant(const Expr *E) const {
    return ApiModel::deviceKindOfConstant(*constructedFrom(E), Context) == DeviceKind::CUDA;
  }

  // The check E calls, directly or through a variable initialised with it.
  std::optional<AvailabilityKind> checkIn(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return checkIn(Cast->getSubExpr());
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return std::nullopt;
      if (std::optional<AvailabilityKind> Kind = Model.availabilityCheck(*Callee))
        return Kind;
      // `min(option, device_count())` is a count of devices that are there:
      // at least k of it means at least k of the count.
      if (Callee->getIdentifier() &&
          hasApiName(ApiNameRole::AtMostEach, Callee->getQualifiedNameAsString()))
        for (const Expr *Argument : Call->arguments())
          if (std::optional<AvailabilityKind> Kind = checkIn(Argument->IgnoreImplicit());
              Kind && *Kind != AvailabilityKind::Flag)
            return Kind;
      return std::nullopt;
    }
    const VarDecl *Var = unchangedLocal(E);
    return Var ? checkIn(Var->getInit()) : std::nullopt;
  }

  // The local E names, when it has an initializer and is never assigned again.
  const VarDecl *unchangedLocal(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return Var && Var->isLocalVarDecl() && Var->getInit() && !Assigned.contains(Var) ? Var
                                                                                     : nullptr;
  }

  std::optional<std::int64_t> constant(const Expr *E) const {
    Expr::EvalResult Result;
    if (E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
      return std::nullopt;
    return Result.Val.getInt().getExtValue();
  }

  void noteAssignment(const Stmt &S) {
    const Expr *Target = nullptr;
    if (const auto *Binary = dyn_cast<BinaryOperator>(&S); Binary && Binary->isAssignmentOp())
      Target = Binary->getLHS();
    else if (const auto *Unary = dyn_cast<UnaryOperator>(&S);
             Unary && Unary->isIncrementDecrementOp())
      Target = Unary->getSubExpr();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&S);
             Op && Op->isAssignmentOp() && Op->getNumArgs() > 0)
      Target = Op->getArg(0);
    if (const auto *Ref = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr)
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Assigned.insert(Var);
  }

  static constexpr unsigned kMaxFlagDepth = 4;
  const ApiModel &Model;
  const ASTContext &Context;
  llvm::DenseSet<const VarDecl *> Assigned;
  mutable unsigned Depth = 0;
};

AvailabilityGuards::AvailabilityGuards(CFG &Graph, const ApiModel &Model,
                                       const ASTContext &Context)
    : Graph(Graph), Dominators(&Graph),
      Reader(std::make_unique<ConditionReader>(Model, Context, Graph)) {
  // The successor taken when the condition is as Polarity says, if it has
  // no other way in. Edges from a branch that cannot return (TORCH_CHECK's
  // failure) do not count as ways in.
  auto OnlyWayIn = [](const CFGBlock &Branch, int Polarity) -> const CFGBlock * {
    const CFGBlock *Taken = *(Branch.succ_begin() + (Polarity > 0 ? 0 : 1));
    if (!Taken)
      return nullptr;
    auto WaysIn = llvm::count_if(Taken->preds(), [](const CFGBlock::AdjacentBlock &Pred) {
      return Pred.getReachableBlock() != nullptr;
    });
    return WaysIn == 1 ? Taken : nullptr;
  };
  for (const CFGBlock *Block : Graph) {
    if (Block->succ_size() != 2)
      continue;
    const auto *Condition = dyn_cast_or_null<Expr>(Block->getTerminatorCondition());
    if (Availability Says = Reader->read(Condition)) {
      if (const CFGBlock *Available = OnlyWayIn(*Block, Says.Polarity))
        Guards.push_back({Available, Says.Devices});
      continue;
    }
    // `if (cuda)`, `if (!use_gpu) return;` on a bool parameter.
    int Polarity = 1;
    const Expr *Tested = Condition ? Condition->IgnoreParenImpCasts() : nullptr;
    while (const auto *Not = dyn_cast_or_null<UnaryOperator>(Tested)) {
      if (Not->getOpcode() != UO_LNot)
        break;
      Polarity = -Polarity;
      Tested = Not->getSubExpr()->IgnoreParenImpCasts();
    }
    const ValueDecl *Flag = callersFlag(Tested);
    if (Flag)
      if (const CFGBlock *Taken = OnlyWayIn(*Block, Polarity))
        FlagGuards.push_back({Taken, Flag});
  }
}

AvailabilityGuards::~AvailabilityGuards() = default;

unsigned AvailabilityGuards::devicesEnsuredIfTrue(const Expr &Condition) const {
  Availability Says = Reader->read(&Condition);
  return Says.Polarity > 0 ? Says.Devices : 0;
}

llvm::SmallVector<const ValueDecl *, 2>
AvailabilityGuards::flagsTrueAt(const CFGBlock &Block) const {
  llvm::SmallVector<const ValueDecl *, 2> Flags;
  for (const FlagGuard &G : FlagGuards)
    if (Dominators.dominates(G.Block, &Block) && !llvm::is_contained(Flags, G.Flag))
      Flags.push_back(G.Flag);
  return Flags;
}

unsigned AvailabilityGuards::devicesEnsuredAt(const CFGBlock &Block) const {
  unsigned Devices = 0;
  for (const Guard &G : Guards)
    if (G.Devices > Devices && Dominators.dominates(G.Block, &Block))
      Devices = G.Devices;
  return Devices;
}

unsigned AvailabilityGuards::devicesEnsuredAt(const Stmt &S) const {
  // A statement inside a lambda's body runs where the lambda is written (it
  // is called there, or handed to a std algorithm): the block that makes
  // the lambda.
  auto Holds = [&](const Stmt *Evaluated) {
    if (Evaluated == &S)
      return true;
    const auto *Lambda = dyn_cast<LambdaExpr>(Evaluated);
    return Lambda && findInTree(Lambda->getBody(), [&](const Stmt &Inner) { return &Inner == &S; });
  };
  for (const CFGBlock *Block : Graph)
    for (const CFGElement &Element : *Block)
      if (std::optional<CFGStmt> Evaluated = Element.getAs<CFGStmt>();
          Evaluated && Holds(Evaluated->getStmt()))
        return devicesEnsuredAt(*Block);
  return 0;
}

} // namespace placelint::analysis
