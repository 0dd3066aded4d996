// Transfers: `to(device | options | tensor)`, `cuda([index])`, `cpu()`,
// which give a new tensor on the target device (the tensor itself when it
// is already there), `item()`, which copies the value to the host, and
// `copy_`, which copies into a tensor that exists.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Whether a copy from From to To is a download from a device (a source of
// unknown device counts): blocking, it waits for the device's queued work.
bool downloadsFromDevice(const DeviceSet &From, const DeviceSet &To) {
  std::optional<AbstractDevice> Source = From.single();
  std::optional<AbstractDevice> Target = To.single();
  return Target && Target->isCpu() && !(Source && Source->isCpu());
}

} // namespace

ValueFact DeviceFlow::evaluateTransfer(const CXXMemberCallExpr &Call, ApiCall Api) {
  const Expr *Object = Call.getImplicitObjectArgument();
  ValueFact Source = factOf(Object);
  DeviceSet Target;
  if (Api.Target == TransferTarget::Cpu) {
    Target = DeviceSet::of(AbstractDevice::cpu());
  } else if (Api.Target == TransferTarget::Cuda) {
    // `cuda(1)`: the index, when the argument is a constant.
    const Expr *Arg = Call.getNumArgs() ? Call.getArg(0) : nullptr;
    std::optional<std::int64_t> Index =
        Arg && !isDefaultArgument(Arg) && Model.classify(Arg->getType()) == ValueKind::Other
            ? integerOf(Arg)
            : std::nullopt;
    Target = DeviceSet::of(Index && *Index >= 0 && *Index <= INT16_MAX
                               ? AbstractDevice::cuda(static_cast<std::int16_t>(*Index))
                               : AbstractDevice::cuda());
    noteCudaRequest(Call, *Target.single());
  } else {
    if (Call.getNumArgs() == 0)
      return Source;
    // A dtype conversion allocates a new tensor on the same device (unless
    // the dtype is already that one): made by this call, which provenance
    // queries look through to its tensor (FunctionFacts::conversionThatMade).
    auto Converted = [&] {
      ValueFact Result = Source;
      Result.setMaker(&Call);
      return Result;
    };
    const Expr *Arg = Call.getArg(0);
    ValueKind ArgKind = Model.classify(Arg->getType());
    if (ArgKind == ValueKind::Tensor) {
      Target = factOf(Arg).Devices;
    } else if (ArgKind == ValueKind::TensorOptions) {
      ValueFact Options = factOf(Arg);
      if (Options.OptionsWithoutDevice)
        return Converted(); // to(dtype): the device does not change
      noteCudaUse(Call, Options);
      Target = Options.Devices;
    } else if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType ||
               stringLiteralIn(Arg)) {
      ValueFact Device = deviceFromArguments(Arg);
      noteCudaUse(Call, Device);
      Target = Device.Devices;
    } else {
      return Converted(); // to(kFloat) and other non-device conversions
    }
  }
  bool NonBlocking = Model.isNonBlocking(Call);
  Facts.record(Transfer{&Call, Object, Source, Target, /*IsSync=*/false, NonBlocking});
  std::optional<AbstractDevice> From = Source.Devices.single();
  std::optional<AbstractDevice> To = Target.single();
  if (!NonBlocking && downloadsFromDevice(Source.Devices, Target))
    completeDownloads(Call);
  if (From && To && compare(*From, *To) == Agreement::Same) {
    // Already there: to() returns the tensor itself.
    ValueFact Same = Source;
    if (To->isConcrete() && To->index() != AbstractDevice::kCurrentIndex)
      Same.Devices = Target; // `cuda` narrowed to `cuda:1`
    return Same;
  }
  ValueFact Result = ValueFact::on(Target, Source.Dim);
  Result.setOrigin({OriginKind::Moved, Call.getExprLoc()});
  Result.setMaker(&Call);
  if (NonBlocking && To && To->isCpu())
    Result.Pending = &Call;
  return Result;
}

ValueFact DeviceFlow::evaluateSync(const CXXMemberCallExpr &Call) {
  const Expr *Object = Call.getImplicitObjectArgument();
  ValueFact Source = factOf(Object);
  Facts.record(Transfer{&Call, Object, Source, DeviceSet::of(AbstractDevice::cpu()), /*IsSync=*/true});
  // item() of a device tensor waits for the work queued before it.
  if (downloadsFromDevice(Source.Devices, DeviceSet::of(AbstractDevice::cpu())))
    completeDownloads(Call);
  return ValueFact();
}

ValueFact DeviceFlow::evaluateCopyInto(const CXXMemberCallExpr &Call) {
  const Expr *Destination = Call.getImplicitObjectArgument();
  ValueFact Written = factOf(Destination);
  if (Call.getNumArgs() == 0)
    return Written;
  const Expr *Copied = Call.getArg(0);
  ValueFact Source = factOf(Copied);
  bool NonBlocking = Model.isNonBlocking(Call);
  Facts.record(Transfer{&Call, Copied, Source, Written.Devices, /*IsSync=*/false, NonBlocking,
                        /*IntoDestination=*/true});
  if (!NonBlocking) {
    if (downloadsFromDevice(Source.Devices, Written.Devices))
      completeDownloads(Call);
    return Written;
  }
  // `host.copy_(d, /*non_blocking=*/true)`: the tensor's bytes now come
  // from the queued copy, into the memory it was made with (its maker
  // stays: a pinned staging buffer is still pinned).
  Written.Pending = &Call;
  if (std::optional<Place> Where = placeOf(Destination))
    write(*Where, Written, nullptr, Call.getExprLoc());
  return Written;
}

void DeviceFlow::completeDownloads(const Expr &Sync, std::optional<const ValueDecl *> OnStream) {
  Facts.record(Synchronization{&Sync});
  for (auto &[Path, Fact] : Current)
    if (Fact.Pending && (!OnStream || streamAt(*Fact.Pending) == *OnStream))
      Fact.Pending = nullptr;
}

} // namespace placelint::analysis
