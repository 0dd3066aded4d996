// Member calls, by the class of the object: tensor methods (the API
// model's tables), TensorOptions methods, module methods (Modules.cpp), and
// methods of user classes (summaries, and what they may change).
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// A dimension argument of a reduction: an index or a list of them.
bool isDimArgument(const Expr *Arg) {
  if (isDefaultArgument(Arg))
    return false;
  const Expr *Value = convertedValue(Arg);
  return Value->getType()->isIntegerType() || listElements(Arg).has_value();
}

} // namespace

ValueFact DeviceFlow::evaluateMemberCall(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  const Expr *Object = Call.getImplicitObjectArgument();
  if (!Method || !Object)
    return ValueFact::unknown();
  QualType ObjectType = Object->getType();
  if (ObjectType->isPointerType())
    ObjectType = ObjectType->getPointeeType();
  ApiCall Api = Model.classifyCall(Call);
  bool ChangesThis = isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !Method->isConst();
  if (Api.Kind == CallKind::RegisterParameter && Call.getNumArgs() >= 2)
    Facts.record(ParameterUse{&Call, Call.getArg(1), factOf(Call.getArg(1)),
                              ParameterUseKind::Registered});

  switch (Model.classify(ObjectType)) {
  case ValueKind::Tensor:
    return evaluateTensorMethod(Call, Api);
  case ValueKind::Module:
    // `this->to(dev)` in a module moves the parameters its fields hold.
    if (ChangesThis && Api.Kind == CallKind::ModuleTo)
      forgetFields();
    return evaluateModuleMethod(Call, Api);
  case ValueKind::TensorOptions:
    return evaluateOptionsMethod(Call, Api);
  case ValueKind::TensorList:
    return evaluateListMethod(Call, Api);
  case ValueKind::Device:
  case ValueKind::DeviceType:
    return ValueFact::unknown();
  case ValueKind::Aggregate:
  case ValueKind::Other:
    break;
  }
  if (Api.Kind == CallKind::Synchronize) { // stream.synchronize(), event.synchronize()
    completeDownloads(Call);
    return untracked(Call);
  }
  if (Api.Kind == CallKind::DatasetLoad && Model.isTensor(Call.getType())) {
    ValueFact Loaded = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
    Loaded.From = {OriginKind::Created, Call.getExprLoc()};
    return Loaded;
  }
  return summaryCall(Call, *Method, Object);
}

ValueFact DeviceFlow::evaluateOptionsMethod(const CXXMemberCallExpr &Call, ApiCall Api) {
  const Expr *Object = Call.getImplicitObjectArgument();
  // Each builder's result remembers it, so that what the options ask for
  // (requires_grad, pinned_memory) can be read back through the chain.
  auto Built = [&](ValueFact Options) {
    Options.MadeBy = &Call;
    return Options;
  };
  switch (Api.Kind) {
  case CallKind::OptionsBuilder:
  case CallKind::OptionsPinnedMemory:
  case CallKind::OptionsRequiresGrad:
    return Built(factOf(Object));
  case CallKind::OptionsDevice: {
    if (explicitArgCount(Call) == 0) { // the getter
      ValueFact Options = factOf(Object);
      Options.OptionsWithoutDevice = false;
      return Options;
    }
    llvm::SmallVector<const Expr *, 2> Args(Call.arguments());
    return Built(deviceFromArguments(Args));
  }
  default:
    return ValueFact::unknown();
  }
}

ValueFact DeviceFlow::evaluateTensorMethod(const CXXMemberCallExpr &Call, ApiCall Api) {
  const Expr *Object = Call.getImplicitObjectArgument();
  bool ReturnsTensor = Model.isTensor(Call.getType());
  // The tensor operands of an operation on the tensor and its arguments;
  // a 0-dim cpu one joins as an input where the op admits it, never as the
  // tensor an in-place op writes.
  auto Operands = [&] {
    llvm::SmallVector<Operand, 3> All{
        operand(Object, /*Promotable=*/Api.AdmitsCpuScalar && !Api.InPlace)};
    for (const Expr *Arg : Call.arguments())
      if (const Expr *Tensor = tensorArgument(Arg))
        All.push_back(operand(Tensor, /*Promotable=*/Api.AdmitsCpuScalar));
    return All;
  };
  switch (Api.Kind) {
  case CallKind::Transfer:
    return evaluateTransfer(Call, Api);
  case CallKind::SyncToHost:
    return evaluateSync(Call);
  case CallKind::GradRead:
    Facts.record(ParameterUse{&Call, Object, factOf(Object), ParameterUseKind::GradRead});
    return derivedFrom(Call, factOf(Object), ZeroDim::Unknown);
  case CallKind::MarkRequiresGrad: {
    // In place: the tensor (and the variable naming it) now requires grad;
    // a non-leaf stays one.
    ValueFact Marked = factOf(Object);
    Marked.MadeBy = &Call;
    if (std::optional<Place> Where = placeOf(Object))
      write(*Where, Marked, nullptr, Call.getExprLoc());
    return Marked;
  }
  case CallKind::SameDeviceOp: {
    ValueFact Result = operation(Call, Api, Operands());
    return Api.InPlace ? factOf(Object) : Result;
  }
  case CallKind::CrossDeviceCopy: {
    // `host.copy_(d, /*non_blocking=*/true)`: the tensor's bytes now come
    // from the queued copy.
    if (!Model.isNonBlocking(Call))
      return factOf(Object);
    ValueFact Written = factOf(Object);
    Written.MadeBy = &Call;
    if (std::optional<Place> Where = placeOf(Object))
      write(*Where, Written, nullptr, Call.getExprLoc());
    return Written;
  }
  case CallKind::ReplacesData:
    // `t.set_data(other)`: t is other's tensor now, where other is.
    if (Call.getNumArgs() >= 1)
      if (std::optional<Place> Where = placeOf(Object))
        write(*Where, factOf(Call.getArg(0)), nullptr, Call.getExprLoc());
    return untracked(Call);
  case CallKind::FullReduction:
    if (!ReturnsTensor)
      return ValueFact();
    // Over dims (`mean(0)`, `sum({0, 1})`) it keeps the others; a dtype
    // alone (`sum(kFloat)`) still reduces everything.
    return derivedFrom(Call, factOf(Object),
                    llvm::any_of(Call.arguments(), isDimArgument) ? ZeroDim::No : ZeroDim::Yes);
  case CallKind::ShapePreserving:
  case CallKind::PinMemory:
    if (!ReturnsTensor)
      return ValueFact();
    if (Api.InPlace) // relu_(), zero_(): the tensor itself
      return factOf(Object);
    return derivedFrom(Call, factOf(Object), factOf(Object).Dim);
  case CallKind::DeviceOf:
  case CallKind::OptionsOf: {
    ValueFact Source = factOf(Object);
    Source.Dim = ZeroDim::Unknown;
    Source.MadeBy = &Call;
    return Source;
  }
  case CallKind::Reshape: {
    if (!ReturnsTensor)
      return untracked(Call);
    // A shape of n > 0 sizes has n dims (`view({})` has none).
    bool ToScalar = Call.getNumArgs() >= 1 && isEmptyList(Call.getArg(0));
    return derivedFrom(Call, factOf(Object), ToScalar ? ZeroDim::Yes : ZeroDim::No);
  }
  case CallKind::Split:
    return derivedFrom(Call, factOf(Object), ZeroDim::No);
  // `view_as(y)` takes only y's shape; indices may stay on the cpu.
  case CallKind::ShapeOf:
  case CallKind::Indexing:
    if (!ReturnsTensor)
      return untracked(Call);
    return derivedFrom(Call, factOf(Object), ZeroDim::Unknown);
  default:
    break;
  }
  if (!ReturnsTensor)
    return untracked(Call);
  // Any other method with tensor arguments (masked_fill, gather,
  // index_select, ...) needs them on its tensor's device.
  llvm::SmallVector<Operand, 3> All = Operands();
  if (All.size() == 1)
    return derivedFrom(Call, factOf(Object), ZeroDim::Unknown);
  return operation(Call, Api, std::move(All));
}

} // namespace placelint::analysis
