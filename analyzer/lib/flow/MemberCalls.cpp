// Member calls, by the class of the object: tensor methods (the API's
// calls, ApiCalls.cpp), TensorOptions methods, module methods (Modules.cpp), and
// methods of user classes (summaries, and what they may change).
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"

namespace placelint::analysis {

using namespace clang;

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
    return evaluateApiCall(Call, Api);
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
  if (Api.Kind == CallKind::Synchronize) // stream.synchronize(), event.synchronize()
    return evaluateApiCall(Call, Api);
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
    Options.setMaker(&Call);
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

} // namespace placelint::analysis
