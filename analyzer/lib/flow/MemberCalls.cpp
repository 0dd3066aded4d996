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

bool isDataset(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto Named = [](const CXXRecordDecl *R) { return R->getName().contains("Dataset"); };
  return Named(Record) || Record->getQualifiedNameAsString().find("::datasets::") !=
                              std::string::npos ||
         !Record->getDefinition()->forallBases([&](const CXXRecordDecl *Base) {
           return !Named(Base);
         });
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
  StringRef Name = Method->getIdentifier() ? Method->getName() : StringRef();
  bool ChangesThis = isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !Method->isConst();
  if (Name == "register_parameter" && Call.getNumArgs() >= 2)
    Facts.record(ParameterUse{&Call, Call.getArg(1), factOf(Call.getArg(1)),
                              ParameterUseKind::Registered});

  switch (Model.classify(ObjectType)) {
  case ValueKind::Tensor:
    return evaluateTensorMethod(Call, Name);
  case ValueKind::Module:
    // `this->to(dev)` in a module moves the parameters its fields hold.
    if (ChangesThis)
      forgetFields();
    return evaluateModuleMethod(Call, Name);
  case ValueKind::TensorOptions:
    return evaluateOptionsMethod(Call, Name);
  case ValueKind::TensorList:
    return evaluateListMethod(Call, Name);
  case ValueKind::Device:
  case ValueKind::DeviceType:
    return ValueFact::unknown();
  case ValueKind::Other:
    break;
  }
  // A dataset (torch::data::datasets::MNIST, a user's Dataset) loads its
  // tensors on the host.
  if (Model.isTensor(Call.getType()) && isDataset(ObjectType)) {
    ValueFact Loaded = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
    Loaded.From = {OriginKind::Created, Call.getExprLoc()};
    return Loaded;
  }
  forgetReferenceArguments(Call, *Method);
  if (ChangesThis)
    forgetFields();
  if (Model.classify(Call.getType()) == ValueKind::Other)
    return ValueFact();
  if (!Method->isVirtual())
    return summaryCall(Call, *Method);
  return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
}

ValueFact DeviceFlow::evaluateOptionsMethod(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  CallKind Kind = ApiModel::classifyOptionsMethod(Name);
  if (Kind == CallKind::OptionsBuilder) {
    ValueFact Options = factOf(Object);
    if (Name == "requires_grad")
      Options.RequiresGrad = isTrueOrDefault(llvm::ArrayRef(Call.getArgs(), Call.getNumArgs()));
    return Options;
  }
  if (Kind != CallKind::OptionsDevice)
    return ValueFact::unknown();
  if (explicitArgCount(Call) == 0) { // the getter
    ValueFact Options = factOf(Object);
    Options.OptionsWithoutDevice = false;
    return Options;
  }
  llvm::SmallVector<const Expr *, 2> Args(Call.arguments());
  return deviceFromArguments(Args);
}

ValueFact DeviceFlow::evaluateTensorMethod(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  bool ReturnsTensor = Model.isTensor(Call.getType());
  if (Name == "grad" || Name == "mutable_grad")
    Facts.record(ParameterUse{&Call, Object, factOf(Object), ParameterUseKind::GradRead});
  if (Name == "requires_grad_") {
    // In place: the tensor (and the variable naming it) now requires grad;
    // a non-leaf stays one.
    ValueFact Marked = factOf(Object);
    Marked.RequiresGrad = isTrueOrDefault(llvm::ArrayRef(Call.getArgs(), Call.getNumArgs()));
    if (const ValueDecl *Var = trackedDecl(Object))
      assign(*Var, Marked, nullptr, Call.getExprLoc());
    return Marked;
  }
  switch (ApiModel::classifyTensorMethod(Name)) {
  case CallKind::Transfer:
    return evaluateTransfer(Call, Name);
  case CallKind::SyncToHost:
    return evaluateSync(Call);
  case CallKind::SameDeviceOp: {
    bool InPlace = Name.ends_with("_");
    llvm::SmallVector<Operand, 3> Operands{operand(Object, /*Promotable=*/!InPlace)};
    for (const Expr *Arg : Call.arguments())
      if (Model.isTensor(Arg->getType()))
        Operands.push_back(operand(Arg));
    ValueFact Result = operation(Call, Name, std::move(Operands));
    return InPlace ? factOf(Object) : Result;
  }
  case CallKind::CrossDeviceCopy:
    return factOf(Object);
  case CallKind::FullReduction:
    if (!ReturnsTensor)
      return ValueFact();
    // Over dims (`mean(0)`, `sum({0, 1})`) it keeps the others; a dtype
    // alone (`sum(kFloat)`) still reduces everything.
    return resultOf(Call, factOf(Object).Devices,
                    llvm::any_of(Call.arguments(), isDimArgument) ? ZeroDim::No : ZeroDim::Yes);
  case CallKind::ShapePreserving:
    if (!ReturnsTensor)
      return ValueFact();
    if (Name.ends_with("_")) // relu_(), zero_(): the tensor itself
      return factOf(Object);
    return resultOf(Call, factOf(Object).Devices, factOf(Object).Dim);
  case CallKind::DeviceOf:
  case CallKind::OptionsOf: {
    ValueFact Source = factOf(Object);
    Source.Dim = ZeroDim::Unknown;
    Source.forgetTransfer();
    return Source;
  }
  default:
    break;
  }
  if (!ReturnsTensor)
    return untracked(Call);
  if (Name == "view" || Name == "reshape" || Name == "flatten" || Name == "unsqueeze" ||
      Name == "expand" || Name == "repeat") {
    // A shape of n > 0 sizes has n dims (`view({})` has none).
    bool ToScalar = Call.getNumArgs() >= 1 && isEmptyList(Call.getArg(0));
    return resultOf(Call, factOf(Object).Devices, ToScalar ? ZeroDim::Yes : ZeroDim::No);
  }
  llvm::SmallVector<Operand, 3> Operands{operand(Object, /*Promotable=*/!Name.ends_with("_"))};
  for (const Expr *Arg : Call.arguments())
    if (Model.isTensor(Arg->getType()))
      Operands.push_back(operand(Arg));
  // `view_as(y)`, `expand_as(y)` take only y's shape; indices may stay on
  // the cpu; any other method with tensor arguments (masked_fill, gather,
  // index_select, ...) needs them on its tensor's device.
  if (Operands.size() == 1 || Name.ends_with("_as") ||
      ApiModel::classifyTensorMethod(Name) == CallKind::Indexing)
    return resultOf(Call, factOf(Object).Devices, ZeroDim::Unknown);
  ValueFact Result = operation(Call, Name, std::move(Operands));
  Result.Dim = ZeroDim::Unknown;
  return Result;
}

} // namespace placelint::analysis
