// The dispatch over expression kinds, and the expressions that only pass a
// value on or name one: parentheses, casts, conditionals, variables,
// fields, string literals and DeviceType constants.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "placelint/analysis/DeviceString.h"

#include "clang/AST/ASTContext.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::factOf(const Expr *E) {
  if (!E)
    return ValueFact::unknown();
  auto &Known = Facts.mutableExpressions();
  if (auto It = Known.find(E); It != Known.end())
    return It->second;
  ValueFact Fact = evaluate(E);
  Known[E] = Fact;
  return Fact;
}

ValueFact DeviceFlow::resultOf(const Expr &Call, DeviceSet Devices, ZeroDim Dim) const {
  ValueFact Fact = ValueFact::on(Devices, Dim);
  Fact.setOrigin({OriginKind::Assigned, Call.getExprLoc()});
  return Fact;
}

ValueFact DeviceFlow::untracked(const Expr &E) const {
  return Model.classify(E.getType()) == ValueKind::Other ? ValueFact() : ValueFact::unknown();
}

ValueFact DeviceFlow::evaluate(const Expr *E) {
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
    // `auto [out, state] = lstm(x, hx)`: each name is an element of the tuple.
    if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl());
        Binding && Binding->getDecomposedDecl() &&
        Model.classify(Binding->getDecomposedDecl()->getType()) == ValueKind::TensorList)
      return read(*Binding->getDecomposedDecl(), *Ref);
    if (isa<VarDecl>(Ref->getDecl()) || isa<BindingDecl>(Ref->getDecl()))
      return read(*Ref->getDecl(), *Ref);
    if (Model.classify(E->getType()) == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return ValueFact::unknown();
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (const ValueDecl *Field = trackedDecl(Member))
      return read(*Field, *Member);
    // `layer->weight`: a parameter of a module, on the module's device.
    if (Model.isTensor(E->getType()) && !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts())) {
      const Expr *Base = Member->getBase();
      QualType BaseType = Base->getType();
      if (Member->isArrow() && BaseType->isPointerType())
        BaseType = BaseType->getPointeeType();
      if (Model.classify(BaseType) == ValueKind::Module) {
        ValueFact Module = factOf(Base);
        ValueFact Parameter = ValueFact::on(Module.Devices, ZeroDim::No);
        Parameter.From = Module.From;
        return Parameter;
      }
    }
    if (const VarDecl *Batch = loaderBatchOf(*Member); Batch && Model.isTensor(E->getType())) {
      ValueFact Loaded = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
      Loaded.From = {OriginKind::Created, Batch->getLocation()};
      return Loaded;
    }
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
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString())) {
      noteCudaRequest(*E, *Device);
      return ValueFact::on(DeviceSet::of(*Device));
    }
  return ValueFact::unknown();
}

const VarDecl *DeviceFlow::loaderBatchOf(const MemberExpr &Member) const {
  const Expr *Base = Member.getBase()->IgnoreParenImpCasts();
  // `batch[i].data` for a batch of examples.
  if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(Base);
      Subscript && Subscript->getOperator() == OO_Subscript)
    Base = Subscript->getArg(0)->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Facts.body().isLoaderBatch(*Var) &&
                 !Facts.body().isMemberAssigned(*Var, *Member.getMemberDecl())
             ? Var
             : nullptr;
}

ValueFact DeviceFlow::evaluateDeviceTypeConstant(const Expr *E) {
  Expr::EvalResult Result;
  const auto *Enum = E->getType()->getAs<EnumType>();
  if (!Enum || E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return ValueFact::unknown();
  llvm::APSInt Value = Result.Val.getInt();
  for (const EnumConstantDecl *Enumerator : Enum->getDecl()->enumerators()) {
    if (llvm::APSInt::compareValues(Enumerator->getInitVal(), Value) != 0)
      continue;
    if (std::optional<DeviceKind> Type =
            ApiModel::deviceKindOfEnumerator(Enumerator->getName())) {
      noteCudaRequest(*E, AbstractDevice::ofType(*Type));
      return ValueFact::on(DeviceSet::of(AbstractDevice::ofType(*Type)));
    }
    return ValueFact::unknown();
  }
  return ValueFact::unknown();
}

// The device named by constructor-like arguments: (Device), (DeviceType),
// (DeviceType, index), ("cuda:1").
ValueFact DeviceFlow::deviceFromArguments(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty())
    return ValueFact::unknown();
  if (const StringLiteral *Literal = stringLiteralIn(Args[0])) {
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString())) {
      noteCudaRequest(*Literal, *Device);
      return ValueFact::on(DeviceSet::of(*Device));
    }
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
  if (Single->isCpu())
    return Type;
  AbstractDevice Device = AbstractDevice::ofType(Single->type(), static_cast<std::int16_t>(Value));
  noteCudaRequest(*Args[0], Device); // `kCUDA, 1` asks for two devices
  return ValueFact::on(DeviceSet::of(Device));
}

} // namespace placelint::analysis
