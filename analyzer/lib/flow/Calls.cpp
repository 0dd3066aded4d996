// Calls of free functions: std::move/forward and make_shared of a module,
// the API model's factories and ops, and the unit's own functions through
// their summaries.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  bool Tracked = Model.classify(Call.getType()) != ValueKind::Other;
  if (!Callee)
    return Tracked ? resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown) : ValueFact();
  if ((isStdFunction(Callee, "move") || isStdFunction(Callee, "forward")) &&
      Call.getNumArgs() == 1)
    return factOf(Call.getArg(0));
  // Tuples of tensors are lists: made by make_tuple, read by get<N>.
  if (isTupleMaker(Callee)) {
    llvm::SmallVector<const Expr *, 4> Elements(Call.arguments());
    return newList(Elements);
  }
  if (isStdFunction(Callee, "get") && Call.getNumArgs() == 1 &&
      Model.classify(Call.getArg(0)->getType()) == ValueKind::TensorList)
    return factOf(Call.getArg(0));
  if ((isStdFunction(Callee, "make_shared") || isStdFunction(Callee, "make_unique")) &&
      Model.classify(Call.getType()) == ValueKind::Module) {
    llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
    return newModule(Call, Call.getExprLoc(), Args);
  }
  CallKind Kind = Model.classifyFreeFunction(*Callee);
  if (Kind != CallKind::Unmodelled)
    return evaluateApiCall(Call, *Callee, Kind);
  forgetReferenceArguments(Call, *Callee);
  if (!Tracked)
    return ValueFact();
  return summaryCall(Call, *Callee);
}

ValueFact DeviceFlow::summaryCall(const CallExpr &Call, const FunctionDecl &Callee) {
  const FunctionDecl *Definition = Callee.getDefinition();
  if (!Definition || !Definition->hasBody() || Definition->isDependentContext() ||
      Context.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
  llvm::SmallVector<ValueFact, 4> Args;
  for (const Expr *Arg : Call.arguments())
    Args.push_back(Model.classify(Arg->getType()) != ValueKind::Other ? factOf(Arg)
                                                                      : ValueFact::unknown());
  // A member call's arguments exclude the object; an operator() call's
  // first argument is the object.
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Definition) && !Args.empty())
    Args.erase(Args.begin());
  // A lambda of this function is analysed with what it is called with here.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && Method->getParent()->isLambda())
    Facts.recordLambdaCall(*Definition, Args);
  ValueFact Summary = Summaries.resultOf(*Definition, Args);
  ValueFact Result = resultOf(Call, Summary.Devices, Summary.Dim);
  // A host-only helper given a fresh copy of a device tensor returns data
  // that came from that device (for round trips: `f(x.cpu()).to(dev)`).
  std::optional<AbstractDevice> On = Result.Devices.single();
  for (const ValueFact &Arg : Args)
    if (On && On->isCpu() && Arg.TransferCall && Arg.Devices == Result.Devices) {
      Result.TransferCall = Arg.TransferCall;
      Result.TransferSource = Arg.TransferSource;
    }
  return Result;
}

ValueFact DeviceFlow::evaluateApiCall(const CallExpr &Call, const FunctionDecl &Callee,
                                      CallKind Kind) {
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  // The device a factory's options or device argument names (Default if none).
  auto FactoryDevice = [&](DeviceSet Default) {
    for (const Expr *Arg : llvm::reverse(Args)) {
      ValueKind ArgKind = Model.classify(Arg->getType());
      if (ArgKind == ValueKind::TensorOptions) {
        ValueFact Options = factOf(Arg);
        return Options.OptionsWithoutDevice ? Default : Options.Devices;
      }
      if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType)
        return deviceFromArguments(Arg).Devices;
    }
    return Default;
  };
  auto Created = [&](DeviceSet Devices, ZeroDim Dim) {
    ValueFact Fact = ValueFact::on(Devices, Dim);
    Fact.From = {OriginKind::Created, Call.getExprLoc()};
    return Fact;
  };
  // No device given, nor pinned memory asked for (a pinned host tensor is
  // made to be copied with non_blocking).
  auto OnTheHostByDefault = [&] {
    for (const Expr *Arg : Args) {
      if (isDefaultArgument(Arg))
        continue;
      ValueKind ArgKind = Model.classify(Arg->getType());
      if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType ||
          (ArgKind == ValueKind::TensorOptions && !factOf(Arg).OptionsWithoutDevice) ||
          findInTree(Arg, [](const Stmt &S) { return callsFunctionNamed(S, "pinned_memory"); }))
        return false;
    }
    return true;
  };
  const DeviceSet OnCpu = DeviceSet::of(AbstractDevice::cpu());
  StringRef Name = Callee.getName();
  if (Model.classify(Call.getType()) == ValueKind::Module) {
    // torch::jit::load(path[, device]): a scripted module, on the device
    // named (passed as an optional<Device>), the cpu by default.
    DeviceSet Devices = OnCpu;
    for (const Expr *Arg : Args) {
      const Expr *Value = convertedValue(Arg);
      ValueKind Kind = Model.classify(Value->getType());
      if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)
        Devices = deviceFromArguments(Value).Devices;
    }
    return Created(Devices, ZeroDim::No);
  }
  switch (Kind) {
  case CallKind::Factory: {
    ZeroDim Dim = ZeroDim::No;
    if (Name == "tensor" && !Args.empty()) {
      if (convertedValue(Args[0])->getType()->isArithmeticType())
        Dim = ZeroDim::Yes;
      else if (!listElements(Args[0]))
        Dim = ZeroDim::Unknown;
    } else if (!Args.empty() && isEmptyList(Args[0])) {
      Dim = ZeroDim::Yes; // zeros({})
    }
    ValueFact Made = Created(FactoryDevice(OnCpu), Dim);
    if (OnTheHostByDefault())
      Made.HostFactory = &Call;
    Made.RequiresGrad = llvm::any_of(Args, [&](const Expr *Arg) {
      return Model.classify(Arg->getType()) == ValueKind::TensorOptions &&
             factOf(Arg).RequiresGrad;
    });
    return Made;
  }
  case CallKind::WrapsHostMemory:
    return Created(FactoryDevice(OnCpu), ZeroDim::No);
  case CallKind::ScalarFactory:
    return Created(FactoryDevice(OnCpu), ZeroDim::Yes);
  case CallKind::FactoryLike: {
    ValueFact Like = Args.empty() ? ValueFact::unknown() : factOf(Args[0]);
    ValueFact Made = Created(FactoryDevice(Like.Devices), Like.Dim);
    std::optional<AbstractDevice> On = Made.Devices.single();
    if (On && On->isCpu() && OnTheHostByDefault())
      Made.HostFactory = &Call;
    return Made;
  }
  case CallKind::SameDeviceOp: {
    llvm::SmallVector<Operand, 3> Operands;
    for (const Expr *Arg : Args)
      if (Model.isTensor(Arg->getType()))
        Operands.push_back(operand(Arg));
    return operation(Call, Name, std::move(Operands));
  }
  case CallKind::ListOp:
    return evaluateListOp(Call, Name);
  case CallKind::OptionsDevice:
    return deviceFromArguments(Args);
  case CallKind::OptionsBuilder: {
    ValueFact Options = ValueFact::on(OnCpu);
    Options.OptionsWithoutDevice = true;
    Options.RequiresGrad = Name == "requires_grad" && isTrueOrDefault(Args);
    return Options;
  }
  default:
    break;
  }
  if (!Model.isTensor(Call.getType()))
    return untracked(Call);
  // Any other API function (relu, softmax, nll_loss, index_select, ...)
  // needs its tensor arguments on one device, and returns a tensor there;
  // a loss is 0-dim.
  bool IsLoss = Name.ends_with("_loss") || Name.ends_with("cross_entropy");
  llvm::SmallVector<Operand, 3> Operands;
  for (const Expr *Arg : Args)
    if (Model.isTensor(Arg->getType()))
      Operands.push_back(operand(Arg, /*Promotable=*/!IsLoss));
  if (Operands.empty())
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
  ValueFact Result = operation(Call, Name, std::move(Operands));
  Result.Dim = IsLoss ? ZeroDim::Yes : ZeroDim::Unknown;
  return Result;
}

} // namespace placelint::analysis
