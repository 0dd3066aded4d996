// Transfers: `to(device | options | tensor)`, `cuda([index])`, `cpu()`,
// which give a new tensor on the target device (the tensor itself when it
// is already there), and `item()`, which copies the value to the host.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// `cuda(1)`: the index, when the argument is a constant.
std::optional<std::int16_t> cudaIndexArgument(const CallExpr &Call, const ApiModel &Model,
                                              const ASTContext &Context) {
  if (Call.getNumArgs() == 0)
    return std::nullopt;
  const Expr *Arg = Call.getArg(0);
  Expr::EvalResult Index;
  if (isDefaultArgument(Arg) || Model.classify(Arg->getType()) != ValueKind::Other ||
      Arg->isValueDependent() || !Arg->EvaluateAsInt(Index, Context))
    return std::nullopt;
  int64_t Value = Index.Val.getInt().getExtValue();
  if (Value < 0 || Value > INT16_MAX)
    return std::nullopt;
  return static_cast<std::int16_t>(Value);
}

} // namespace

ValueFact DeviceFlow::evaluateTransfer(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  ValueFact Source = factOf(Object);
  DeviceSet Target;
  if (Name == "cpu") {
    Target = DeviceSet::of(AbstractDevice::cpu());
  } else if (Name == "cuda") {
    std::optional<std::int16_t> Index = cudaIndexArgument(Call, Model, Context);
    Target = DeviceSet::of(Index ? AbstractDevice::cuda(*Index) : AbstractDevice::cuda());
    noteCudaRequest(Call, *Target.single());
  } else {
    if (Call.getNumArgs() == 0)
      return Source;
    const Expr *Arg = Call.getArg(0);
    ValueKind ArgKind = Model.classify(Arg->getType());
    if (ArgKind == ValueKind::Tensor) {
      Target = factOf(Arg).Devices;
    } else if (ArgKind == ValueKind::TensorOptions) {
      ValueFact Options = factOf(Arg);
      if (Options.OptionsWithoutDevice)
        return Source; // to(dtype): the device does not change
      Target = Options.Devices;
    } else if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType ||
               stringLiteralIn(Arg)) {
      Target = deviceFromArguments(Arg).Devices;
    } else {
      return Source; // to(kFloat) and other non-device conversions
    }
  }
  Facts.record(Transfer{&Call, Source, Target, /*IsSync=*/false});
  std::optional<AbstractDevice> From = Source.Devices.single();
  std::optional<AbstractDevice> To = Target.single();
  if (From && To && compare(*From, *To) == Agreement::Same) {
    // Already there: to() returns the tensor itself.
    ValueFact Same = Source;
    if (To->isConcrete() && To->index() != AbstractDevice::kCurrentIndex)
      Same.Devices = Target; // `cuda` narrowed to `cuda:1`
    return Same;
  }
  ValueFact Result = ValueFact::on(Target, Source.Dim);
  Result.setOrigin({OriginKind::Moved, Call.getExprLoc()});
  Result.TransferCall = &Call;
  Result.TransferSource = Source.Devices;
  // The copy of a leaf that requires grad is not a leaf: its gradient goes
  // back to the leaf, and it has none of its own.
  if (Source.RequiresGrad || Source.NonLeafMove)
    Result.NonLeafMove = Source.NonLeafMove ? Source.NonLeafMove : &Call;
  return Result;
}

ValueFact DeviceFlow::evaluateSync(const CXXMemberCallExpr &Call) {
  Facts.record(Transfer{&Call, factOf(Call.getImplicitObjectArgument()),
                        DeviceSet::of(AbstractDevice::cpu()), /*IsSync=*/true});
  return ValueFact();
}

} // namespace placelint::analysis
