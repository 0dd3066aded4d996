// The dispatch over expression kinds, and the expressions that only pass a
// value on or name one: parentheses, casts, conditionals, variables,
// fields, string literals and DeviceType constants.
#include "flow/DeviceFlow.h"
#include "flow/DeviceStrings.h"

#include "ApiSpellings.h"
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

AbstractValue DeviceFlow::valueOf(const Expr *E) {
  AbstractValue Value(factOf(E));
  if (E)
    if (auto It = Facts.expressionParts().find(E); It != Facts.expressionParts().end())
      Value.Parts = It->second;
  return Value;
}

const Expr *DeviceFlow::tensorArgument(const Expr *Arg) const {
  if (ApiModel::isOptional(Arg->getType()))
    Arg = convertedValue(Arg);
  return Model.isTensor(Arg->getType()) ? Arg : nullptr;
}

ValueFact DeviceFlow::yield(const Expr &E, AbstractValue Value) {
  if (!Value.Parts.empty())
    Facts.mutableParts()[&E] = std::move(Value.Parts);
  return Value.Whole;
}

ValueFact DeviceFlow::resultOf(const Expr &Call, DeviceSet Devices, ZeroDim Dim) const {
  ValueFact Fact = ValueFact::on(Devices, Dim);
  Fact.setOrigin({OriginKind::Assigned, Call.getExprLoc()});
  Fact.MadeBy = &Call;
  return Fact;
}

ValueFact DeviceFlow::derivedFrom(const Expr &Call, const ValueFact &Source,
                                  ZeroDim Dim) const {
  ValueFact Fact = resultOf(Call, Source.Devices, Dim);
  Fact.AfterMismatch = Source.AfterMismatch;
  return Fact;
}

ValueFact DeviceFlow::untracked(const Expr &E) const {
  return Model.classify(E.getType()) == ValueKind::Other ? ValueFact() : ValueFact::unknown();
}

namespace {

// The step a field is: `first` and `second` of a std::pair are its
// elements, as std::get<0> and std::get<1> name them.
AccessStep stepOf(const FieldDecl &Field) {
  const RecordDecl *Parent = Field.getParent();
  if (stdHolder(Parent->getQualifiedNameAsString()) == StdHolder::Tuple)
    return AccessStep::element(Field.getFieldIndex());
  return AccessStep::field(&Field);
}

// The entry a constant key names (`m["ids"]`, `m.at("ids")`): each entry a
// program names by its key keeps its own value.
std::optional<AccessStep> keyStep(const Expr *Key) {
  const auto *Literal = Key ? dyn_cast<StringLiteral>(constructedFrom(Key)) : nullptr;
  if (!Literal || !Literal->isOrdinary())
    return std::nullopt;
  return AccessStep::key(Literal->getString());
}

// A pair's member read through a range-for variable over a map (`for (auto
// &entry : m) entry.second = ...`): every entry in turn.
bool isEntryOfRange(const MemberExpr &Member, BodyFacts &Body, const ApiModel &Model) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Member.getBase()->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const Expr *Range = Var ? Body.rangeOf(*Var) : nullptr;
  return Range && ApiModel::isTuple(Var->getType()) &&
         Model.classify(Range->getType()) == ValueKind::TensorList;
}

} // namespace

AbstractValue DeviceFlow::elementOf(const Expr &Container, const Expr *Index) {
  if (std::optional<AccessStep> Key = keyStep(Index))
    if (std::optional<Place> Where = placeOf(&Container))
      if (std::optional<AccessPath> Entry = Where->Path.child(*Key))
        return read(*Entry);
  // Any entry: the container's own value, or one of those named by a key
  // (the positions of a list written out are in its own value already).
  AbstractValue Value = valueOf(&Container);
  llvm::erase_if(Value.Parts, [&](const AbstractValue::Part &Part) {
    if (Part.first.steps().front().isPosition())
      return true;
    if (!Part.first.steps().front().isKey())
      return false;
    if (Part.first.depth() == 1)
      Value.Whole = Value.Whole.join(Part.second);
    return true;
  });
  return Value;
}

std::optional<DeviceFlow::Place> DeviceFlow::placeOf(const Expr *E) const {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  // One step further into a place; past the depth limit, the place itself
  // (written, it joins what it holds).
  auto Into = [](std::optional<Place> Base, AccessStep Step) -> std::optional<Place> {
    if (!Base)
      return std::nullopt;
    if (std::optional<AccessPath> Child = Base->Path.child(Step))
      return Place{*Child, Base->OneElement};
    return Place{Base->Path, true};
  };
  // `v[0]`, `m["mean"]`, `v[k]`: one element, the others keep theirs. `v[i]`
  // by the counter of a `for (size_t i = 0; ...)` loop stands for every
  // element in turn (`v[i] = v[i].to(d)`).
  auto ElementOf = [&](std::optional<Place> Container,
                       const Expr *Index) -> std::optional<Place> {
    if (std::optional<AccessStep> Key = keyStep(Index))
      return Into(Container, *Key);
    if (Container && !Facts.body().isZeroBasedCounter(Index))
      Container->OneElement = true;
    return Container;
  };
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl())) {
      // `auto [out, state] = f()`: an element or a field of the hidden variable.
      if (const VarDecl *Holding = Binding->getHoldingVar())
        return placeOf(Holding->getInit());
      return placeOf(Binding->getBinding());
    }
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return std::nullopt;
    // `for (auto &t : v)`: t is each element of v in turn, written in place.
    if (const Expr *Range = Facts.body().rangeOf(*Var);
        Range && Var->getType()->isReferenceType() &&
        !Var->getType().getNonReferenceType().isConstQualified() &&
        Model.classify(Range->getType()) == ValueKind::TensorList)
      if (std::optional<Place> Container = placeOf(Range))
        return Container;
    // `auto &r = x;`: r is x's place, read and written there.
    if (const Expr *Bound = Facts.body().boundPlace(*Var))
      if (std::optional<Place> Aliased = placeOf(Bound))
        return Aliased;
    return Place{AccessPath(Var)};
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return std::nullopt;
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      return Place{AccessPath(Field)};
    if (isEntryOfRange(*Member, Facts.body(), Model))
      return placeOf(Member->getBase());
    return Into(placeOf(Member->getBase()), stepOf(*Field));
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref)
    return placeOf(Unary->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getNumArgs() >= 1) {
    ValueKind Object = Model.classify(Op->getArg(0)->getType());
    // Smart pointers and optionals are what they hold.
    if ((Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Object != ValueKind::Tensor)
      return placeOf(Op->getArg(0));
    if (Op->getOperator() == OO_Subscript && Object == ValueKind::TensorList &&
        Op->getNumArgs() == 2)
      return ElementOf(placeOf(Op->getArg(0)), Op->getArg(1));
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    ApiCall Api = Model.classifyCall(*Call);
    if (Api.Kind == CallKind::ListRead)
      return ElementOf(placeOf(Call->getImplicitObjectArgument()),
                       Call->getNumArgs() ? Call->getArg(0) : nullptr);
    // `opt.value()`, `ptr.get()`: what they hold.
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() &&
        stdHolder(Method->getParent()->getQualifiedNameAsString()) &&
        hasApiName(ApiNameRole::HolderAccess, Method->getName()))
      return placeOf(Call->getImplicitObjectArgument());
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    ApiCall Api = Model.classifyCall(*Call);
    if (Api.Kind == CallKind::TupleGet && Call->getNumArgs() == 1)
      if (std::optional<unsigned> Index = tupleIndex(*Call))
        return Into(placeOf(Call->getArg(0)), AccessStep::element(*Index));
    if (Api.Kind == CallKind::StdMove && Call->getNumArgs() == 1)
      return placeOf(Call->getArg(0));
  }
  return std::nullopt;
}

ValueFact DeviceFlow::evaluate(const Expr *E) {
  // What only passes a value on passes its parts on too.
  auto PassOn = [&](const Expr *Inner) { return yield(*E, valueOf(Inner)); };
  if (const auto *Paren = dyn_cast<ParenExpr>(E))
    return PassOn(Paren->getSubExpr());
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return PassOn(Full->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return PassOn(Temporary->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return PassOn(Bind->getSubExpr());
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return PassOn(Default->getExpr());
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return PassOn(Default->getExpr());
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getType()->isVoidType())
      return ValueFact();
    if (Model.classify(E->getType()) == ValueKind::DeviceType &&
        Model.classify(Cast->getSubExpr()->getType()) != ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return PassOn(Cast->getSubExpr());
  }
  if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E))
    return yield(*E, valueOf(Conditional->getTrueExpr())
                         .join(valueOf(Conditional->getFalseExpr())));
  if (const auto *Unary = dyn_cast<UnaryOperator>(E);
      Unary && (Unary->getOpcode() == UO_AddrOf || Unary->getOpcode() == UO_Deref))
    return PassOn(Unary->getSubExpr());
  // `torch::kCUDA`, a constant: asked for here.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E);
      Ref && Model.classify(E->getType()) == ValueKind::DeviceType)
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && !Var->hasLocalStorage() && Var->getType().isConstQualified())
      return evaluateDeviceTypeConstant(E);
  if (std::optional<Place> Where = placeOf(E))
    return yield(*E, read(Where->Path));
  if (isa<DeclRefExpr>(E)) {
    if (Model.classify(E->getType()) == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(E);
    return untracked(*E);
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return evaluateMember(*Member);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return evaluateConstruct(*Construct);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return evaluateInitList(*List);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return evaluateOperatorCall(*Op);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    return evaluateMemberCall(*Call);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evaluateCall(*Call);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E); Binary && Binary->isCommaOp())
    return PassOn(Binary->getRHS());
  if (const auto *Literal = dyn_cast<StringLiteral>(E))
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString()))
      return mentioned(*E, *Device);
  return untracked(*E);
}

ValueFact DeviceFlow::evaluateMember(const MemberExpr &Member) {
  // A field of a value that lives nowhere (`make_batch().img`, `get<0>(f())`).
  if (const auto *Field = dyn_cast<FieldDecl>(Member.getMemberDecl())) {
    std::optional<AccessPath> Step = AccessPath().child(stepOf(*Field));
    return yield(Member, valueOf(Member.getBase()).below(*Step));
  }
  if (Model.classify(Member.getType()) == ValueKind::DeviceType)
    return evaluateDeviceTypeConstant(&Member);
  return untracked(Member);
}
std::optional<std::int64_t> DeviceFlow::integerOf(const Expr *E) const {
  Expr::EvalResult Result;
  if (!E->isValueDependent() && E->EvaluateAsInt(Result, Context))
    return Result.Val.getInt().getExtValue();
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  unsigned Index = Param ? Param->getFunctionScopeIndex() : 0;
  if (!Param || Param->getDeclContext() != &Function || Index >= Inputs.Integers.size())
    return std::nullopt;
  return Inputs.Integers[Index];
}

ValueFact DeviceFlow::evaluateDeviceTypeConstant(const Expr *E) {
  if (std::optional<DeviceKind> Type = ApiModel::deviceKindOfConstant(*E, Context))
    return mentioned(*E, AbstractDevice::ofType(*Type));
  return ValueFact::unknown();
}

// The device named by constructor-like arguments: (Device), (DeviceType),
// (DeviceType, index), ("cuda:1").
ValueFact DeviceFlow::deviceFromArguments(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty())
    return ValueFact::unknown();
  const StringLiteral *Literal = stringLiteralIn(Args[0]);
  if (!Literal && Model.classify(Args[0]->getType()) == ValueKind::Other)
    Literal = deviceStringHeldBy(*Args[0], Context); // `Device(cfg.device)`
  if (Literal) {
    if (std::optional<AbstractDevice> Device = parseDeviceString(Literal->getString()))
      return mentioned(*Literal, *Device);
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
  std::optional<std::int64_t> Index = integerOf(Args[1]);
  if (Single && Single->isCuda() && !Index) {
    // `Device(kCUDA, rank)`: which device is not known, but CUDA was asked
    // for there (placement-unguarded-cuda reads the maker).
    ValueFact SomeCuda = ValueFact::unknown();
    SomeCuda.MadeBy = Args[0];
    return SomeCuda;
  }
  if (!Single || !Single->isConcrete() || !Index)
    return ValueFact::unknown();
  int64_t Value = *Index;
  if (Value < -1 || Value > INT16_MAX)
    return ValueFact::unknown();
  if (Single->isCpu())
    return Type;
  return mentioned(*Args[0],
                   AbstractDevice::ofType(Single->type(), static_cast<std::int16_t>(Value)));
}

ValueFact DeviceFlow::mentioned(const Expr &Where, const AbstractDevice &Device) const {
  ValueFact Fact = ValueFact::on(DeviceSet::of(Device));
  Fact.MadeBy = &Where;
  return Fact;
}

} // namespace placelint::analysis
