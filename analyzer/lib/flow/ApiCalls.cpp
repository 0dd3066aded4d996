// The API's calls, by what they do: one match switch from the API model's
// CallKind to its transfer function, for the method spelling (`t.add(u)`:
// t is the call's tensor) and the free one (`torch::add(t, u)`: its first
// argument, when a tensor, is) alike — the shape of clang's
// UncheckedOptionalAccessModel. A kind one spelling cannot have (a factory
// method, a free `item`) falls through to the general rule: the tensor
// operands on one device, the result there.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ExprCXX.h"

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

// The dims of a tensor made with Shape: none for `{}`, two or more for a
// list of two sizes or more, else at least one (a size, an IntArrayRef).
ZeroDim dimsOfShape(const Expr &Shape) {
  if (isEmptyList(&Shape))
    return ZeroDim::Yes;
  std::optional<llvm::SmallVector<const Expr *, 4>> Sizes = listElements(&Shape);
  return Sizes && Sizes->size() >= 2 ? ZeroDim::Matrix : ZeroDim::No;
}

} // namespace

ValueFact DeviceFlow::evaluateApiCall(const CallExpr &Call, ApiCall Api) {
  const auto *Method = dyn_cast<CXXMemberCallExpr>(&Call);
  llvm::ArrayRef<const Expr *> Args(Call.getArgs(), Call.getNumArgs());
  // The tensor the call is about: the object of a method, the first
  // argument of a free function when it is a tensor.
  const Expr *Self = Method ? Method->getImplicitObjectArgument() : nullptr;
  if (!Method && !Args.empty() && Model.isTensor(Args.front()->getType())) {
    Self = Args.front();
    Args = Args.drop_front();
  }
  bool ReturnsTensor = Model.isTensor(Call.getType());
  const DeviceSet OnCpu = DeviceSet::of(AbstractDevice::cpu());
  // The tensor operands: the call's tensor, then its tensor arguments. A
  // 0-dim cpu one joins as an input where the op admits it, never as the
  // tensor an in-place op writes, nor as a loss's input (compared element
  // by element).
  auto Operands = [&] {
    bool Promotable = Api.AdmitsCpuScalar && Api.Kind != CallKind::Loss;
    llvm::SmallVector<Operand, 3> All;
    if (Self)
      All.push_back(operand(Self, /*Promotable=*/Promotable && !Api.InPlace));
    for (const Expr *Arg : Args)
      if (const Expr *Tensor = tensorArgument(Arg))
        All.push_back(operand(Tensor, Promotable));
    return All;
  };
  // The device a factory's options or device argument names (Default if none).
  auto FactoryDevice = [&](DeviceSet Default) {
    for (const Expr *Arg : llvm::reverse(Args)) {
      ValueKind ArgKind = Model.classify(Arg->getType());
      if (ArgKind == ValueKind::TensorOptions) {
        ValueFact Options = factOf(Arg);
        noteCudaUse(Call, Options);
        return Options.OptionsWithoutDevice ? Default : Options.Devices;
      }
      if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType) {
        ValueFact Device = deviceFromArguments(Arg);
        noteCudaUse(Call, Device);
        return Device.Devices;
      }
    }
    return Default;
  };
  auto Created = [&](DeviceSet Devices, ZeroDim Dim) {
    ValueFact Fact = ValueFact::on(Devices, Dim);
    Fact.From = {OriginKind::Created, Call.getExprLoc()};
    Fact.setMaker(&Call);
    return Fact;
  };

  if (!Method && Model.classify(Call.getType()) == ValueKind::Module) {
    // torch::jit::load(path[, device]): a scripted module, on the device
    // named (passed as an optional<Device>), the cpu by default.
    DeviceSet Devices = OnCpu;
    for (const Expr *Arg : Args) {
      const Expr *Value = convertedValue(Arg);
      ValueKind Kind = Model.classify(Value->getType());
      if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType) {
        ValueFact Device = deviceFromArguments(Value);
        noteCudaUse(Call, Device);
        Devices = Device.Devices;
      }
    }
    return Created(Devices, ZeroDim::No);
  }

  switch (Api.Kind) {
  // Making tensors.
  case CallKind::Factory: {
    if (Self)
      break;
    ZeroDim Dim = ZeroDim::No;
    if (Api.Rank == ResultRank::OfLiteral && !Args.empty()) {
      QualType Data = convertedValue(Args[0])->getType().getNonReferenceType();
      if (Data->isArithmeticType())
        Dim = ZeroDim::Yes;
      else if (!listElements(Args[0]) && !Data->isRecordType())
        Dim = ZeroDim::Unknown; // a std::vector's data has one dim at least
    } else if (!Args.empty()) {
      Dim = dimsOfShape(*Args[0]); // zeros({}) has none, randn({t, n}) two
    }
    return Created(FactoryDevice(OnCpu), Dim);
  }
  case CallKind::FactoryLike: {
    ValueFact Like = Self ? factOf(Self) : ValueFact::unknown();
    return Created(FactoryDevice(Like.Devices), Like.Dim);
  }
  case CallKind::ScalarFactory:
    return Created(FactoryDevice(OnCpu), ZeroDim::Yes);
  case CallKind::WrapsHostMemory:
    return Created(FactoryDevice(OnCpu), ZeroDim::No);
  case CallKind::Sample:
    // `normal(0, 1, {n})` draws from numbers: a factory; `bernoulli(p)`
    // draws from p, on p's device.
    if (Self || llvm::any_of(Args, [&](const Expr *Arg) { return tensorArgument(Arg); }))
      break;
    return Created(FactoryDevice(OnCpu), ZeroDim::Unknown);
  case CallKind::SerializedLoad:
    // `torch::load(t, path[, device])`: data files hold what was saved, and
    // tensors are saved from the host as a rule; on the device given if any.
    // A list (`torch::load(tensors, path)`) is filled with such tensors.
    if (const Expr *Loaded = Self   ? Self
                             : !Args.empty() &&
                                     Model.classify(Args[0]->getType()) == ValueKind::TensorList
                                 ? Args[0]
                                 : nullptr)
      if (std::optional<Place> Into = placeOf(Loaded))
        write(*Into, Created(FactoryDevice(OnCpu), ZeroDim::Unknown), nullptr, Call.getExprLoc());
    return ValueFact();

  // Moving them.
  case CallKind::Transfer:
    if (Method)
      return evaluateTransfer(*Method, Api);
    break;
  case CallKind::SyncToHost:
    if (Method)
      return evaluateSync(*Method);
    break;
  case CallKind::CrossDeviceCopy:
    if (Method)
      return evaluateCopyInto(*Method);
    break;
  case CallKind::ReplacesData:
    // `t.set_data(other)`: t is other's tensor now, where other is.
    if (!Method || Args.empty())
      break;
    if (std::optional<Place> Where = placeOf(Self))
      write(*Where, factOf(Args[0]), nullptr, Call.getExprLoc());
    return untracked(Call);
  case CallKind::Synchronize: // cuda::synchronize(), a stream's or an event's synchronize()
    completeDownloads(Call, Method ? streamNamed(*Method->getImplicitObjectArgument())
                                   : std::nullopt);
    return untracked(Call);

  // Computing with them.
  case CallKind::SameDeviceOp: {
    ValueFact Result = operation(Call, Api, Operands());
    return Api.InPlace && Self ? factOf(Self) : Result;
  }
  case CallKind::ListOp:
    if (Method)
      break;
    return evaluateListOp(Call, Api, Call.getDirectCallee()->getName());
  case CallKind::Split:
    return Self ? derivedFrom(Call, factOf(Self), ZeroDim::No)
                : resultOf(Call, DeviceSet::unknown(), ZeroDim::No);
  case CallKind::FullReduction:
    if (!Self)
      break;
    if (!ReturnsTensor)
      return ValueFact();
    // Over dims (`mean(0)`, `sum({0, 1})`) it keeps the others; a dtype
    // alone (`sum(kFloat)`) still reduces everything.
    return derivedFrom(Call, factOf(Self),
                       llvm::any_of(Args, isDimArgument) ? ZeroDim::No : ZeroDim::Yes);
  case CallKind::ShapePreserving:
  case CallKind::PinMemory:
    if (!Self)
      break;
    if (!ReturnsTensor)
      return ValueFact();
    if (Api.InPlace) // relu_(), zero_(): the tensor itself
      return factOf(Self);
    return derivedFrom(Call, factOf(Self), factOf(Self).Dim);
  case CallKind::Reshape: {
    if (!Self)
      break;
    if (!ReturnsTensor)
      return untracked(Call);
    // A shape of n > 0 sizes has n dims (`view({})` has none).
    return derivedFrom(Call, factOf(Self), Args.empty() ? ZeroDim::No : dimsOfShape(*Args[0]));
  }
  // `view_as(y)` takes only y's shape; indices may stay on the cpu.
  case CallKind::ShapeOf:
  case CallKind::Indexing:
    if (!Self)
      break;
    if (Api.InPlace && Args.size() >= 2) // index_put_(indices, values)
      noteElementWrite(Call, *Self, *Args[1]);
    if (!ReturnsTensor)
      return untracked(Call);
    return derivedFrom(Call, factOf(Self), ZeroDim::Unknown);

  // Reading what a tensor is.
  case CallKind::DeviceOf:
  case CallKind::OptionsOf: {
    if (!Self)
      break;
    ValueFact Source = factOf(Self);
    Source.Dim = ZeroDim::Unknown;
    Source.setMaker(&Call);
    return Source;
  }

  // Autograd.
  case CallKind::GradRead:
    if (!Method)
      break;
    Facts.record(ParameterUse{&Call, Self, factOf(Self), ParameterUseKind::GradRead});
    return derivedFrom(Call, factOf(Self), ZeroDim::Unknown);
  case CallKind::MarkRequiresGrad: {
    if (!Method)
      break;
    // In place: the tensor (and the variable naming it) now requires grad;
    // a non-leaf stays one.
    ValueFact Marked = factOf(Self);
    Marked.setMaker(&Call);
    if (std::optional<Place> Where = placeOf(Self))
      write(*Where, Marked, nullptr, Call.getExprLoc());
    return Marked;
  }

  // Tensor options, in their free spellings (`torch::device(d)`,
  // `torch::dtype(t)`); their methods are evaluateOptionsMethod's.
  case CallKind::OptionsDevice: {
    if (Method)
      break;
    llvm::SmallVector<const Expr *, 2> All(Call.arguments());
    ValueFact Options = deviceFromArguments(All);
    Options.setMaker(&Call);
    return Options;
  }
  case CallKind::OptionsBuilder:
  case CallKind::OptionsRequiresGrad: {
    if (Method)
      break;
    ValueFact Options = ValueFact::on(OnCpu);
    Options.OptionsWithoutDevice = true;
    Options.setMaker(&Call);
    return Options;
  }
  default:
    break;
  }
  if (!ReturnsTensor)
    return untracked(Call);
  // Any other API call (masked_fill, gather, softmax, nll_loss, ...) needs
  // its tensor operands on one device, and returns a tensor there.
  llvm::SmallVector<Operand, 3> All = Operands();
  if (All.empty())
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
  // One tensor through an op the model gives no rank (an unlisted
  // reduction or a softmax alike): its rank is not the input's.
  if (All.size() == 1 && Api.Rank == ResultRank::Broadcast)
    return derivedFrom(Call, All.front().Fact, ZeroDim::Unknown);
  return operation(Call, Api, std::move(All));
}

} // namespace placelint::analysis
