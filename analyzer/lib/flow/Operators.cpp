// Overloaded operators: calling a module or a function object, `->`/`*` on
// a holder, a smart pointer or an optional, assignment to a tracked place,
// and arithmetic on tensors.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/Basic/OperatorKinds.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// The tensor a chain of subscripts indexes (`t` of `t[i][j]`), or null
// when Written is no subscript of a tensor.
const Expr *subscripted(const Expr &Written, const ApiModel &Model) {
  const Expr *Tensor = nullptr;
  for (const Expr *E = &Written;;) {
    const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (!Subscript || Subscript->getOperator() != OO_Subscript ||
        Subscript->getNumArgs() != 2 || !Model.isTensor(Subscript->getArg(0)->getType()))
      return Tensor;
    E = Tensor = Subscript->getArg(0)->IgnoreImplicit();
  }
}

} // namespace

void DeviceFlow::noteElementWrite(const CallExpr &Call, const Expr &Tensor, const Expr &Value) {
  const ValueFact &Target = factOf(&Tensor);
  // A number, or a tensor on the host: its value crosses to the device.
  const Expr *Given = Value.IgnoreUnlessSpelledInSource();
  std::optional<AbstractDevice> From =
      Model.isTensor(Given->getType()) ? factOf(Given).Devices.single() : AbstractDevice::cpu();
  if (Target.Devices.excludesCpu() && From && From->isCpu())
    Facts.record(ElementWrite{&Call, &Tensor, Target.Devices});
}

ValueFact DeviceFlow::evaluateOperatorCall(const CXXOperatorCallExpr &Op) {
  OverloadedOperatorKind Kind = Op.getOperator();
  unsigned NumArgs = Op.getNumArgs();
  if (NumArgs == 0)
    return ValueFact::unknown();
  const Expr *Lhs = Op.getArg(0);
  ValueKind LhsKind = Model.classify(Lhs->getType());
  // `net->` on a std::shared_ptr<Net> calls the operator of a base class of
  // shared_ptr (libstdc++'s __shared_ptr_access).
  if (LhsKind == ValueKind::Other)
    LhsKind = Model.classify(Lhs->IgnoreParenImpCasts()->getType());

  if (Kind == OO_Call && LhsKind == ValueKind::Module) {
    llvm::SmallVector<const Expr *, 4> Inputs(Op.arguments());
    return applyModule(Op, *Lhs, llvm::ArrayRef(Inputs).drop_front());
  }
  // Smart pointers and optionals are what they hold.
  if ((Kind == OO_Arrow || Kind == OO_Star) && LhsKind != ValueKind::Tensor &&
      LhsKind != ValueKind::Other)
    return yield(Op, valueOf(Lhs));
  // Calling a lambda or another function object: a call, not an operation;
  // a std::function calls the lambda stored in it.
  if (Kind == OO_Call && LhsKind != ValueKind::Tensor) {
    const auto *Callee = dyn_cast_or_null<CXXMethodDecl>(Op.getDirectCallee());
    if (Callee && Callee->getParent()->isInStdNamespace())
      if (const LambdaExpr *Target = functionTarget(*Lhs))
        return summaryCall(Op, *Target->getCallOperator(), Target);
    return Op.getDirectCallee() ? summaryCall(Op, *Op.getDirectCallee(), Lhs) : untracked(Op);
  }
  if (Kind == OO_Equal && NumArgs == 2) {
    if (const Expr *Tensor = LhsKind == ValueKind::Tensor ? subscripted(*Lhs, Model) : nullptr)
      noteElementWrite(Op, *Tensor, *Op.getArg(1));
    std::optional<Place> Target = placeOf(Lhs);
    if (Target && Model.classify(Op.getArg(1)->getType()) != ValueKind::Other) {
      write(*Target, valueOf(Op.getArg(1)), Op.getArg(1), Op.getOperatorLoc());
      return yield(Op, read(Target->Path));
    }
    return yield(Op, valueOf(Lhs));
  }
  // `list[i]` of a ModuleList or ModuleDict: one of the modules put into it.
  if (Kind == OO_Subscript && LhsKind == ValueKind::Module)
    return yield(Op, valueOf(Lhs));
  if (Kind == OO_Subscript && LhsKind == ValueKind::TensorList)
    return yield(Op, elementOf(*Lhs, NumArgs >= 2 ? Op.getArg(1) : nullptr));
  bool RhsIsTensor = NumArgs >= 2 && Model.isTensor(Op.getArg(1)->getType());
  if (LhsKind != ValueKind::Tensor && !RhsIsTensor)
    return untracked(Op);
  if (Kind == OO_Subscript) // one dim fewer
    return derivedFrom(Op, factOf(Lhs),
                       factOf(Lhs).Dim == ZeroDim::Matrix ? ZeroDim::No : ZeroDim::Unknown);
  if (NumArgs == 1) // -t, !t, ~t
    return derivedFrom(Op, factOf(Lhs), factOf(Lhs).Dim);

  std::string Name = ("operator" + llvm::StringRef(getOperatorSpelling(Kind))).str();
  if (Op.isAssignmentOp()) { // +=, -=, ...: the tensor changes in place
    llvm::SmallVector<Operand, 3> Operands{operand(Lhs, /*Promotable=*/false)};
    if (RhsIsTensor)
      Operands.push_back(operand(Op.getArg(1)));
    operation(Op, Name, ResultRank::Broadcast, std::move(Operands));
    return factOf(Lhs);
  }
  llvm::SmallVector<Operand, 3> Operands;
  for (const Expr *Arg : Op.arguments())
    if (Model.isTensor(Arg->getType()))
      Operands.push_back(operand(Arg));
  return operation(Op, Name, ResultRank::Broadcast, std::move(Operands));
}

} // namespace placelint::analysis
