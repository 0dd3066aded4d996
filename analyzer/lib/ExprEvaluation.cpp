// The transfer functions of expressions: what device each tensor-, device-,
// options- or module-valued expression has, and the same-device rule
// (mixed-device) for operations combining tensors.
#include "FunctionAnalyzer.h"
#include "placelint/analysis/DeviceString.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis::detail {

namespace {

bool isCpuScalar(const ValueFact &Fact) {
  std::optional<AbstractDevice> Device = Fact.Devices.single();
  return Fact.Dim == ZeroDim::Yes && Device && Device->isCpu();
}

} // namespace

const ValueDecl *trackedDecl(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(Ref->getDecl()))
      return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()) &&
        isa<FieldDecl>(Member->getMemberDecl()))
      return Member->getMemberDecl();
  return nullptr;
}


namespace {

// The module variable behind `model`, `model->`, `*model`.
const ValueDecl *moduleDecl(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    if (Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() >= 1) {
      E = Op->getArg(0);
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E);
        Unary && Unary->getOpcode() == UO_Deref) {
      E = Unary->getSubExpr();
      continue;
    }
    return trackedDecl(E);
  }
  return nullptr;
}

const StringLiteral *stringLiteralIn(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Literal = dyn_cast<StringLiteral>(E))
      return Literal;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0)
      return nullptr;
    E = Construct->getArg(0);
  }
  return nullptr;
}

bool isDefaultArgument(const Expr *E) { return isa<CXXDefaultArgExpr>(E); }

unsigned explicitArgCount(const CallExpr &Call) {
  unsigned Count = 0;
  for (const Expr *Arg : Call.arguments())
    if (!isDefaultArgument(Arg))
      ++Count;
  return Count;
}
} // namespace

// ---------------------------------------------------------------------------
// Expressions

ValueFact FunctionAnalyzer::factOf(const Expr *E) {
  if (!E)
    return ValueFact::unknown();
  auto It = ExprFacts.find(E);
  if (It != ExprFacts.end())
    return It->second;
  ValueFact Fact = evaluate(E);
  ExprFacts[E] = Fact;
  return Fact;
}

ValueFact FunctionAnalyzer::resultOf(const Expr &Call, DeviceSet Devices, ZeroDim Dim) const {
  ValueFact Fact = ValueFact::on(Devices, Dim);
  Fact.setOrigin({OriginKind::Assigned, Call.getExprLoc()});
  return Fact;
}

ValueFact FunctionAnalyzer::evaluate(const Expr *E) {
  if (const auto *Paren = dyn_cast<ParenExpr>(E))
    return factOf(Paren->getSubExpr());
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return factOf(Full->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return factOf(Temporary->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return factOf(Bind->getSubExpr());
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return factOf(Default->getExpr());
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return factOf(Default->getExpr());
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getType()->isVoidType())
      return ValueFact();
    if (Model.classify(E->getType()) == ValueKind::DeviceType &&
        Model.classify(Cast->getSubExpr()->getType()) != ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return factOf(Cast->getSubExpr());
  }
  if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E))
    return factOf(Conditional->getTrueExpr()).join(factOf(Conditional->getFalseExpr()));
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (isa<VarDecl>(Ref->getDecl()) || isa<BindingDecl>(Ref->getDecl()))
      return read(*Ref->getDecl(), *Ref);
    if (Model.classify(E->getType()) == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return ValueFact::unknown();
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (const ValueDecl *Field = trackedDecl(Member))
      return read(*Field, *Member);
    if (Model.classify(E->getType()) == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return ValueFact::unknown();
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return evaluateConstruct(*Construct);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return evaluateOperatorCall(*Op);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    return evaluateMemberCall(*Call);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evaluateCall(*Call);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E); Binary && Binary->isCommaOp())
    return factOf(Binary->getRHS());
  if (const auto *Literal = dyn_cast<StringLiteral>(E))
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString()))
      return ValueFact::on(DeviceSet::of(*Device));
  return ValueFact::unknown();
}

ValueFact FunctionAnalyzer::evaluateDeviceTypeConstant(const Expr *E) {
  Expr::EvalResult Result;
  const auto *Enum = E->getType()->getAs<EnumType>();
  if (!Enum || E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return ValueFact::unknown();
  llvm::APSInt Value = Result.Val.getInt();
  for (const EnumConstantDecl *Enumerator : Enum->getDecl()->enumerators()) {
    if (llvm::APSInt::compareValues(Enumerator->getInitVal(), Value) != 0)
      continue;
    std::optional<DeviceKind> Kind =
        ApiModel::deviceKindOfEnumerator(Enumerator->getName());
    if (!Kind)
      return ValueFact::unknown();
    switch (*Kind) {
    case DeviceKind::Cpu:
      return ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
    case DeviceKind::Cuda:
      return ValueFact::on(DeviceSet::of(AbstractDevice::cuda()));
    case DeviceKind::Sim:
      return ValueFact::on(DeviceSet::of(AbstractDevice::sim()));
    case DeviceKind::Symbolic:
      break;
    }
  }
  return ValueFact::unknown();
}

// The device named by constructor-like arguments: (Device), (DeviceType),
// (DeviceType, index), ("cuda:1").
ValueFact FunctionAnalyzer::deviceFromArguments(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty())
    return ValueFact::unknown();
  if (const StringLiteral *Literal = stringLiteralIn(Args[0])) {
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString()))
      return ValueFact::on(DeviceSet::of(*Device));
    return ValueFact::unknown();
  }
  ValueKind Kind = Model.classify(Args[0]->getType());
  if (Kind == ValueKind::Device)
    return factOf(Args[0]);
  if (Kind != ValueKind::DeviceType)
    return ValueFact::unknown();
  ValueFact Type = factOf(Args[0]);
  if (Args.size() < 2 || isDefaultArgument(Args[1]))
    return Type;
  std::optional<AbstractDevice> Single = Type.Devices.single();
  Expr::EvalResult Index;
  if (!Single || !Single->isConcrete() || Args[1]->isValueDependent() ||
      !Args[1]->EvaluateAsInt(Index, Context))
    return ValueFact::unknown();
  int64_t Value = Index.Val.getInt().getExtValue();
  if (Value < -1 || Value > INT16_MAX)
    return ValueFact::unknown();
  auto Index16 = static_cast<std::int16_t>(Value);
  switch (Single->kind()) {
  case DeviceKind::Cpu:
    return Type;
  case DeviceKind::Cuda:
    return ValueFact::on(DeviceSet::of(AbstractDevice::cuda(Index16)));
  case DeviceKind::Sim:
    return ValueFact::on(DeviceSet::of(AbstractDevice::sim(Index16)));
  case DeviceKind::Symbolic:
    break;
  }
  return ValueFact::unknown();
}

ValueFact FunctionAnalyzer::evaluateConstruct(const CXXConstructExpr &Construct) {
  ValueKind Kind = Model.classify(Construct.getType());
  bool IsCopy = Construct.getNumArgs() >= 1 &&
                Construct.getConstructor()->isCopyOrMoveConstructor();
  if (IsCopy && Kind != ValueKind::Other)
    return factOf(Construct.getArg(0));
  llvm::SmallVector<const Expr *, 4> Args(Construct.arguments());
  switch (Kind) {
  case ValueKind::Device:
    return deviceFromArguments(Args);
  case ValueKind::TensorOptions: {
    bool NamesDevice =
        !Args.empty() && (stringLiteralIn(Args[0]) ||
                          Model.classify(Args[0]->getType()) == ValueKind::Device ||
                          Model.classify(Args[0]->getType()) == ValueKind::DeviceType);
    if (NamesDevice)
      return deviceFromArguments(Args);
    ValueFact Options = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
    Options.OptionsWithoutDevice = true;
    return Options;
  }
  case ValueKind::Module: {
    ValueFact Module = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
    Module.From = {OriginKind::Created, Construct.getBeginLoc()};
    return Module;
  }
  case ValueKind::Tensor:
  case ValueKind::DeviceType:
  case ValueKind::Other:
    break;
  }
  return ValueFact::unknown();
}

ValueFact FunctionAnalyzer::evaluateOperatorCall(const CXXOperatorCallExpr &Op) {
  OverloadedOperatorKind Kind = Op.getOperator();
  unsigned NumArgs = Op.getNumArgs();
  if (NumArgs == 0)
    return ValueFact::unknown();
  const Expr *Lhs = Op.getArg(0);
  ValueKind LhsKind = Model.classify(Lhs->getType());

  if (Kind == OO_Call && LhsKind == ValueKind::Module) {
    llvm::SmallVector<const Expr *, 4> Inputs(Op.arguments());
    return applyModule(Op, *Lhs, llvm::ArrayRef(Inputs).drop_front());
  }
  if ((Kind == OO_Arrow || Kind == OO_Star) && LhsKind == ValueKind::Module)
    return factOf(Lhs);
  if (Kind == OO_Equal && NumArgs == 2) {
    const ValueDecl *Target = trackedDecl(Lhs);
    ValueFact Value = factOf(Op.getArg(1));
    if (Target && Model.classify(Op.getArg(1)->getType()) != ValueKind::Other) {
      assign(*Target, Value, Op.getArg(1), Op.getOperatorLoc());
      return Current[Target];
    }
    return factOf(Lhs);
  }
  if (LhsKind != ValueKind::Tensor &&
      (NumArgs < 2 || !Model.isTensor(Op.getArg(1)->getType())))
    return Model.classify(Op.getType()) == ValueKind::Other ? ValueFact()
                                                            : ValueFact::unknown();
  if (Kind == OO_Subscript)
    return resultOf(Op, factOf(Lhs).Devices, ZeroDim::Unknown);
  if (NumArgs == 1) // -t, !t, ~t
    return resultOf(Op, factOf(Lhs).Devices, factOf(Lhs).Dim);

  std::string OpName = ("operator" + llvm::StringRef(getOperatorSpelling(Kind))).str();
  if (Op.isAssignmentOp()) { // +=, -=, ...: the tensor changes in place
    llvm::SmallVector<Operand, 2> Operands{operand(Lhs, /*InPlaceSelf=*/true)};
    if (Model.isTensor(Op.getArg(1)->getType()))
      Operands.push_back(operand(Op.getArg(1)));
    checkSameDevice(Op, OpName, Operands);
    return factOf(Lhs);
  }
  llvm::SmallVector<Operand, 2> Operands;
  for (const Expr *Arg : Op.arguments())
    if (Model.isTensor(Arg->getType()))
      Operands.push_back(operand(Arg));
  checkSameDevice(Op, OpName, Operands);
  return combine(Op, Operands);
}

ValueFact FunctionAnalyzer::evaluateMemberCall(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  const Expr *Object = Call.getImplicitObjectArgument();
  if (!Method || !Object)
    return ValueFact::unknown();
  QualType ObjectType = Object->getType();
  if (ObjectType->isPointerType())
    ObjectType = ObjectType->getPointeeType();
  ValueKind ObjectKind = Model.classify(ObjectType);
  StringRef Name = Method->getIdentifier() ? Method->getName() : StringRef();

  switch (ObjectKind) {
  case ValueKind::Tensor:
    return evaluateTensorMethod(Call, Name);
  case ValueKind::Module:
    // `this->to(dev)` in a module moves the parameters its fields hold.
    if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !Method->isConst())
      forgetFields();
    return evaluateModuleMethod(Call, Name);
  case ValueKind::TensorOptions: {
    CallKind Kind = ApiModel::classifyOptionsMethod(Name);
    if (Kind == CallKind::OptionsBuilder)
      return factOf(Object);
    if (Kind != CallKind::OptionsDevice)
      return ValueFact::unknown();
    llvm::SmallVector<const Expr *, 2> Args(Call.arguments());
    if (explicitArgCount(Call) == 0) { // the getter
      ValueFact Options = factOf(Object);
      Options.OptionsWithoutDevice = false;
      return Options;
    }
    return deviceFromArguments(Args);
  }
  case ValueKind::Device:
  case ValueKind::DeviceType:
    return ValueFact::unknown();
  case ValueKind::Other:
    break;
  }
  forgetReferenceArguments(Call, *Method);
  if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !Method->isConst())
    forgetFields();
  if (Model.classify(Call.getType()) == ValueKind::Other)
    return ValueFact();
  if (!Method->isVirtual())
    return summaryCall(Call, *Method);
  return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
}

void FunctionAnalyzer::forgetReferenceArguments(const CallExpr &Call,
                                                const FunctionDecl &Callee) {
  unsigned Count = std::min(Call.getNumArgs(), Callee.getNumParams());
  for (unsigned I = 0; I < Count; ++I) {
    QualType Param = Callee.getParamDecl(I)->getType();
    if (!Param->isReferenceType() || Param.getNonReferenceType().isConstQualified())
      continue;
    if (const ValueDecl *Var = trackedDecl(stripCopies(Call.getArg(I))))
      if (Model.classify(Var->getType()) != ValueKind::Other)
        Current[Var] = ValueFact::unknown();
  }
}

void FunctionAnalyzer::forgetFields() {
  llvm::SmallVector<const ValueDecl *, 4> Fields;
  for (const auto &[Decl, Fact] : Current)
    if (isa<FieldDecl>(Decl))
      Fields.push_back(Decl);
  for (const ValueDecl *Field : Fields)
    Current.erase(Field);
}

ValueFact FunctionAnalyzer::evaluateTensorMethod(const CXXMemberCallExpr &Call,
                                                 StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  CallKind Kind = ApiModel::classifyTensorMethod(Name);
  bool ReturnsTensor = Model.isTensor(Call.getType());
  switch (Kind) {
  case CallKind::Transfer:
    return evaluateTransfer(Call, Name);
  case CallKind::SameDeviceOp: {
    bool InPlace = Name.ends_with("_");
    llvm::SmallVector<Operand, 3> Operands{operand(Object, InPlace)};
    for (const Expr *Arg : Call.arguments())
      if (Model.isTensor(Arg->getType()))
        Operands.push_back(operand(Arg));
    checkSameDevice(Call, Name, Operands);
    if (InPlace)
      return factOf(Object);
    ValueFact Result = combine(Call, Operands);
    if (Name == "dot")
      Result.Dim = ZeroDim::Yes;
    else if (Name == "matmul")
      Result.Dim = ZeroDim::Unknown;
    return Result;
  }
  case CallKind::CrossDeviceCopy:
    return factOf(Object);
  case CallKind::FullReduction:
    if (!ReturnsTensor)
      return ValueFact();
    return resultOf(Call, factOf(Object).Devices,
                    explicitArgCount(Call) == 0 ? ZeroDim::Yes : ZeroDim::Unknown);
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
    Source.TransferCall = nullptr;
    Source.TransferSource = DeviceSet();
    return Source;
  }
  case CallKind::SyncToHost: {
    if (!reporting())
      return ValueFact();
    ValueFact Source = factOf(Object);
    checkTransferInLoop(Call, Source, DeviceSet::of(AbstractDevice::cpu()));
    return ValueFact();
  }
  default:
    break;
  }
  if (!ReturnsTensor)
    return Model.classify(Call.getType()) == ValueKind::Other ? ValueFact()
                                                              : ValueFact::unknown();
  // An unmodelled method (view, reshape, index, ...): same device, rank unknown.
  return resultOf(Call, factOf(Object).Devices, ZeroDim::Unknown);
}

ValueFact FunctionAnalyzer::evaluateTransfer(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  ValueFact Source = factOf(Object);
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  ValueFact Target;
  if (Name == "cpu") {
    Target = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
  } else if (Name == "cuda") {
    Target = ValueFact::on(DeviceSet::of(AbstractDevice::cuda()));
    Expr::EvalResult Index;
    if (!Args.empty() && !isDefaultArgument(Args[0]) &&
        Model.classify(Args[0]->getType()) == ValueKind::Other &&
        !Args[0]->isValueDependent() && Args[0]->EvaluateAsInt(Index, Context) &&
        Index.Val.getInt().getExtValue() >= 0 &&
        Index.Val.getInt().getExtValue() <= INT16_MAX)
      Target = ValueFact::on(DeviceSet::of(
          AbstractDevice::cuda(static_cast<std::int16_t>(Index.Val.getInt().getExtValue()))));
  } else {
    if (Args.empty())
      return Source;
    ValueKind ArgKind = Model.classify(Args[0]->getType());
    if (ArgKind == ValueKind::Tensor) {
      Target = ValueFact::on(factOf(Args[0]).Devices);
    } else if (ArgKind == ValueKind::TensorOptions) {
      ValueFact Options = factOf(Args[0]);
      if (Options.OptionsWithoutDevice)
        return Source; // to(dtype): the device does not change
      Target = Options;
    } else if (ArgKind == ValueKind::Device || ArgKind == ValueKind::DeviceType ||
               stringLiteralIn(Args[0])) {
      Target = deviceFromArguments(Args[0]);
    } else {
      return Source; // to(kFloat) and other non-device conversions
    }
  }
  if (reporting())
    checkTransferInLoop(Call, Source, Target.Devices);
  std::optional<AbstractDevice> From = Source.Devices.single();
  std::optional<AbstractDevice> To = Target.Devices.single();
  if (From && To && compare(*From, *To) == Agreement::Same) {
    // Already there: to() returns the tensor itself.
    ValueFact Same = Source;
    if (To->isConcrete() && To->index() != AbstractDevice::kCurrentIndex)
      Same.Devices = Target.Devices; // `cuda` narrowed to `cuda:1`
    return Same;
  }
  ValueFact Result = ValueFact::on(Target.Devices, Source.Dim);
  Result.setOrigin({OriginKind::Moved, Call.getExprLoc()});
  Result.TransferCall = &Call;
  Result.TransferSource = Source.Devices;
  return Result;
}

ValueFact FunctionAnalyzer::evaluateModuleMethod(const CXXMemberCallExpr &Call,
                                                 StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  if (Name == "forward")
    return applyModule(Call, *Object, Args);
  if (Name != "to" || Args.empty())
    return Model.classify(Call.getType()) == ValueKind::Other ? ValueFact()
                                                              : ValueFact::unknown();
  // Module::to(device[, dtype]) moves the parameters in place.
  ValueKind ArgKind = Model.classify(Args[0]->getType());
  if (ArgKind != ValueKind::Device && ArgKind != ValueKind::DeviceType &&
      !stringLiteralIn(Args[0]))
    return ValueFact();
  if (const ValueDecl *Module = moduleDecl(Object)) {
    ValueFact Moved = deviceFromArguments(Args[0]);
    Moved.setOrigin({OriginKind::Moved, Call.getExprLoc()});
    Current[Module] = Moved;
  }
  return ValueFact();
}

ValueFact FunctionAnalyzer::applyModule(const Expr &Call, const Expr &ModuleExpr,
                                        llvm::ArrayRef<const Expr *> Args) {
  const Expr *Input = nullptr;
  for (const Expr *Arg : Args)
    if (Model.isTensor(Arg->getType())) {
      Input = Arg;
      break;
    }
  ValueFact Module = factOf(&ModuleExpr);
  if (!Input)
    return resultOf(Call, Module.Devices, ZeroDim::Unknown);
  // The module operand is named by its variable (`model`, not `model->`).
  const Expr *ModuleOperand = &ModuleExpr;
  while (const auto *Op = dyn_cast<CXXOperatorCallExpr>(ModuleOperand->IgnoreParenImpCasts()))
    if ((Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) && Op->getNumArgs())
      ModuleOperand = Op->getArg(0);
    else
      break;
  Operand Operands[] = {operand(Input), {ModuleOperand->IgnoreParenImpCasts(), Module}};
  Operands[1].Fact.Dim = ZeroDim::No;
  checkSameDevice(Call, "forward", Operands);
  ValueFact InputFact = Operands[0].Fact;
  return resultOf(Call, InputFact.Devices.isKnown() ? InputFact.Devices : Module.Devices,
                  ZeroDim::Unknown);
}

ValueFact FunctionAnalyzer::evaluateCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  bool Tracked = Model.classify(Call.getType()) != ValueKind::Other;
  if (!Callee)
    return Tracked ? resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown) : ValueFact();
  if (Callee->isInStdNamespace() && Callee->getIdentifier()) {
    StringRef Name = Callee->getName();
    if ((Name == "move" || Name == "forward") && Call.getNumArgs() == 1)
      return factOf(Call.getArg(0));
    if ((Name == "make_shared" || Name == "make_unique") &&
        Model.classify(Call.getType()) == ValueKind::Module) {
      ValueFact Module = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
      Module.From = {OriginKind::Created, Call.getExprLoc()};
      return Module;
    }
  }
  CallKind Kind = Model.classifyFreeFunction(*Callee);
  if (Kind != CallKind::Unmodelled)
    return evaluateApiCall(Call, *Callee, Kind);
  forgetReferenceArguments(Call, *Callee);
  if (!Tracked)
    return ValueFact();
  return summaryCall(Call, *Callee);
}

ValueFact FunctionAnalyzer::summaryCall(const CallExpr &Call, const FunctionDecl &Callee) {
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
  ValueFact Summary = Owner.summarize(*Definition, Args);
  return resultOf(Call, Summary.Devices, Summary.Dim);
}

namespace {

// The elements of `{a, b}` passed as a tensor list (ArrayRef, vector,
// initializer_list), or nullopt when the argument is not a literal list.
std::optional<llvm::SmallVector<const Expr *, 4>> listElements(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      llvm::SmallVector<const Expr *, 4> Elements(List->inits());
      return Elements;
    }
    if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = StdList->getSubExpr();
      continue;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      return std::nullopt;
    if (Construct->getNumArgs() == 0) { // `{}` value-initialising an ArrayRef
      if (Construct->isListInitialization())
        return llvm::SmallVector<const Expr *, 4>();
      return std::nullopt;
    }
    E = Construct->getArg(0);
  }
  return std::nullopt;
}

// The value a converting constructor wraps: `2.0` in TensorDataContainer(2.0).
const Expr *convertedValue(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() != 1 || Construct->isListInitialization())
      return E;
    E = Construct->getArg(0);
  }
}

bool isEmptyList(const Expr *E) {
  std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(E);
  return Elements && Elements->empty();
}

} // namespace

ValueFact FunctionAnalyzer::evaluateApiCall(const CallExpr &Call, const FunctionDecl &Callee,
                                            CallKind Kind) {
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  // The device a factory's options or device argument names (cpu if none).
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
  StringRef Name = Callee.getName();
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
    return Created(FactoryDevice(DeviceSet::of(AbstractDevice::cpu())), Dim);
  }
  case CallKind::ScalarFactory:
    return Created(FactoryDevice(DeviceSet::of(AbstractDevice::cpu())), ZeroDim::Yes);
  case CallKind::FactoryLike: {
    ValueFact Like = Args.empty() ? ValueFact::unknown() : factOf(Args[0]);
    return Created(FactoryDevice(Like.Devices), Like.Dim);
  }
  case CallKind::SameDeviceOp: {
    llvm::SmallVector<Operand, 3> Operands;
    for (const Expr *Arg : Args)
      if (Model.isTensor(Arg->getType()))
        Operands.push_back(operand(Arg));
    checkSameDevice(Call, Name, Operands);
    ValueFact Result = combine(Call, Operands);
    if (Name == "dot")
      Result.Dim = ZeroDim::Yes;
    else if (Name == "matmul")
      Result.Dim = ZeroDim::Unknown;
    return Result;
  }
  case CallKind::ListOp: {
    std::optional<llvm::SmallVector<const Expr *, 4>> Elements =
        Args.empty() ? std::nullopt : listElements(Args[0]);
    if (!Elements)
      return resultOf(Call, DeviceSet::unknown(), ZeroDim::No);
    llvm::SmallVector<Operand, 4> Operands;
    for (const Expr *Element : *Elements)
      Operands.push_back(operand(Element));
    checkSameDevice(Call, Name, Operands);
    ValueFact Result = combine(Call, Operands);
    Result.Dim = ZeroDim::No;
    return Result;
  }
  case CallKind::OptionsDevice:
    return deviceFromArguments(Args);
  case CallKind::OptionsBuilder: {
    ValueFact Options = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
    Options.OptionsWithoutDevice = true;
    return Options;
  }
  default:
    break;
  }
  if (!Model.isTensor(Call.getType()))
    return Model.classify(Call.getType()) == ValueKind::Other ? ValueFact()
                                                              : ValueFact::unknown();
  // An unmodelled API function (relu, softmax, ...): on its first tensor
  // argument's device.
  for (const Expr *Arg : Args)
    if (Model.isTensor(Arg->getType()))
      return resultOf(Call, factOf(Arg).Devices, ZeroDim::Unknown);
  return resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
}

// ---------------------------------------------------------------------------
// Operations combining tensors

ValueFact FunctionAnalyzer::combine(const Expr &Call, llvm::ArrayRef<Operand> Operands) const {
  // PyTorch's TensorIterator: 0-dim cpu inputs follow the other operands.
  bool AllCpuScalars = llvm::all_of(Operands, [](const Operand &O) {
    return isCpuScalar(O.Fact);
  });
  DeviceSet Devices;
  std::optional<ZeroDim> Dim;
  for (const Operand &O : Operands) {
    Dim = Dim ? (*Dim == ZeroDim::No || O.Fact.Dim == ZeroDim::No
                     ? ZeroDim::No
                     : analysis::join(*Dim, O.Fact.Dim))
              : O.Fact.Dim;
    if (!AllCpuScalars && isCpuScalar(O.Fact) && !O.InPlaceSelf)
      continue;
    if (std::optional<AbstractDevice> Single = O.Fact.Devices.single();
        Single && Devices.single() && compare(*Single, *Devices.single()) == Agreement::Same)
      continue;
    Devices = Devices.join(O.Fact.Devices);
  }
  if (Devices.isBottom())
    Devices = DeviceSet::unknown();
  return resultOf(Call, Devices, Dim.value_or(ZeroDim::Unknown));
}

void FunctionAnalyzer::checkSameDevice(const Expr &Call, StringRef OpName,
                                       llvm::ArrayRef<Operand> Operands) {
  if (!reporting() || !Reported.insert(&Call).second)
    return;
  llvm::SmallVector<const Operand *, 4> Candidates;
  for (const Operand &O : Operands) {
    if (!O.Fact.Devices.isKnown())
      continue; // unknown never reports
    if (isCpuScalar(O.Fact) && !O.InPlaceSelf)
      continue; // scalar promotion
    Candidates.push_back(&O);
  }
  auto Report = [&](const Operand &First, AbstractDevice FirstDevice,
                    const Operand &Second, AbstractDevice SecondDevice, bool Definite) {
    MixedDeviceFinding Finding;
    Finding.Call = &Call;
    Finding.OpName = OpName.str();
    Finding.First = {First.E, First.Fact.Devices, First.Fact.originOf(FirstDevice)};
    Finding.Second = {Second.E, Second.Fact.Devices, Second.Fact.originOf(SecondDevice)};
    Finding.FirstDevice = FirstDevice;
    Finding.SecondDevice = SecondDevice;
    if (Definite)
      Handler->onMixedDevice(Finding);
    else
      Handler->onMayMixedDevice(Finding);
  };
  if (Candidates.size() < 2)
    return;
  // Definite: the first operand against the first that is certainly elsewhere.
  const Operand &First = *Candidates.front();
  if (std::optional<AbstractDevice> A = First.Fact.Devices.single(); A && A->isConcrete())
    for (const Operand *Other : llvm::ArrayRef(Candidates).drop_front())
      if (std::optional<AbstractDevice> B = Other->Fact.Devices.single();
          B && B->isConcrete() && compare(*A, *B) == Agreement::Differ)
        return Report(First, *A, *Other, *B, /*Definite=*/true);
  // May: an operand on one concrete device against one that may be elsewhere.
  for (size_t I = 0; I < Candidates.size(); ++I)
    for (size_t J = I + 1; J < Candidates.size(); ++J)
      for (auto [Uncertain, Known] :
           {std::pair{Candidates[I], Candidates[J]}, std::pair{Candidates[J], Candidates[I]}}) {
        std::optional<AbstractDevice> Definite = Known->Fact.Devices.single();
        if (!Definite || !Definite->isConcrete())
          continue;
        std::optional<AbstractDevice> UncertainSingle = Uncertain->Fact.Devices.single();
        if (UncertainSingle && UncertainSingle->isConcrete())
          continue;
        for (const AbstractDevice &Member : Uncertain->Fact.Devices.devices()) {
          Agreement Relation = compare(Member, *Definite);
          if (Relation == Agreement::Differ || Relation == Agreement::MayDiffer)
            return Report(*Uncertain, Member, *Known, *Definite, /*Definite=*/false);
        }
      }
}

} // namespace placelint::analysis::detail
