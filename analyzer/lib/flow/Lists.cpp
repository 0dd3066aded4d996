// Lists: a container of tracked values (std::vector<Tensor>, of IValues, of
// batches, a map of tensors) is tracked as one value, the join of its
// elements' (empty: bottom); push_back, emplace_back, insert and emplace
// add to it, `v[i]`, `at`, `front`, `back` and a range-for read an
// element. Tuples and pairs are lists whose elements are also parts of
// their own (`std::get<1>(t)`).
// cat / stack need every element on one device (a 0-dim cpu element is no
// exception); the result is there, never 0-dim.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace placelint::analysis {

using namespace clang;

AbstractValue DeviceFlow::elementValue(const Expr *Element) {
  // `IValue(t)` and other converting constructions hold the tensor t.
  const Expr *Value = convertedValue(Element);
  if (Model.isTensor(Value->getType()))
    return valueOf(Value);
  // A map's entry built in place (`{"dense", t}`): the tensors it holds.
  if (ApiModel::isTuple(Value->getType())) {
    llvm::ArrayRef<const Expr *> Parts;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value))
      Parts = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
    else if (const auto *List = dyn_cast<InitListExpr>(Value))
      Parts = llvm::ArrayRef(List->getInits(), List->getNumInits());
    AbstractValue Held;
    for (const Expr *Part : Parts)
      if (Model.classify(Part->getType()) != ValueKind::Other)
        Held = Held.join(elementValue(Part));
    if (!Parts.empty())
      return Held.Whole.Devices.isBottom() ? AbstractValue(ValueFact::unknown()) : Held;
  }
  return Model.classify(Element->getType()) != ValueKind::Other
             ? valueOf(Element)
             : AbstractValue(ValueFact::unknown());
}

ValueFact DeviceFlow::newList(const Expr &Made, llvm::ArrayRef<const Expr *> Elements,
                              bool InOrder) {
  // Positions are kept for short lists only: they are what a method hands
  // out (`return {w_, b_};`), and each is a part every copy carries.
  constexpr size_t kMaxPositions = 8;
  AbstractValue List;
  llvm::SmallVector<AbstractValue::Part, 0> Positions;
  for (unsigned I = 0; I < Elements.size(); ++I) {
    AbstractValue Element = elementValue(Elements[I]);
    if (InOrder && Elements.size() <= kMaxPositions && Model.isTensor(Elements[I]->getType()))
      Positions.emplace_back(*AccessPath().child(AccessStep::position(I)), Element.Whole);
    List = List.join(Element);
  }
  // Made by its list: what the elements share is read from them there.
  if (!List.Whole.Devices.isBottom() && !List.Whole.MadeBy)
    List.Whole.setMaker(&Made);
  if (Positions.empty())
    return List.Whole;
  return yield(Made, AbstractValue::withParts(List.Whole, std::move(Positions)));
}

ValueFact DeviceFlow::newTuple(const Expr &Made, llvm::ArrayRef<const Expr *> Elements) {
  AbstractValue Tuple;
  for (const Expr *Element : Elements)
    Tuple.Whole = Tuple.Whole.join(elementValue(Element).Whole);
  for (unsigned I = 0; I < Elements.size(); ++I)
    Tuple.set(*AccessPath().child(AccessStep::element(I)), elementValue(Elements[I]));
  return yield(Made, std::move(Tuple));
}

namespace {

// The one value an insertion puts into a list: push_back's argument,
// insert's or emplace's beside a position or a key (`v.insert(v.end(), t)`,
// `m.emplace("w", t)`); null when it builds its element from several
// tracked values or inserts a range.
const Expr *insertedValue(const CXXMemberCallExpr &Call, const ApiModel &Model) {
  if (Call.getNumArgs() == 1)
    return Call.getArg(0);
  const Expr *Tracked = nullptr;
  for (const Expr *Arg : Call.arguments()) {
    if (Model.classify(Arg->getType()) == ValueKind::Other)
      continue;
    if (Tracked)
      return nullptr;
    Tracked = Arg;
  }
  return Tracked;
}

} // namespace

ValueFact DeviceFlow::evaluateListMethod(const CXXMemberCallExpr &Call, ApiCall Api) {
  const Expr *Object = Call.getImplicitObjectArgument();
  std::optional<Place> List = placeOf(Object);
  // `groups.emplace_back(params, options)` makes an optimizer's parameter
  // group in place.
  if (Api.Kind == CallKind::ListInsert && Call.getNumArgs() >= 1 &&
      !Model.isOptimizer(Call.getArg(0)->getType()))
    if (const auto *Container = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            Object->getType().getNonReferenceType()->getAsCXXRecordDecl());
        Container && Container->getTemplateArgs().size() >= 1 &&
        Container->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
        Model.isOptimizer(Container->getTemplateArgs()[0].getAsType()))
      recordOptimizer(Call, llvm::ArrayRef(Call.getArgs(), Call.getNumArgs()));
  if (Api.Kind == CallKind::ListInsert && Call.getNumArgs() >= 1) {
    if (List) {
      const Expr *Inserted = insertedValue(Call, Model);
      AbstractValue Element =
          Inserted ? elementValue(Inserted) : AbstractValue(ValueFact::unknown());
      write({List->Path}, read(List->Path).join(Element), nullptr, Call.getExprLoc());
    }
    return ValueFact();
  }
  if (Api.Kind == CallKind::ListClear) {
    if (List)
      write({List->Path}, ValueFact(), nullptr, Call.getExprLoc());
    return ValueFact();
  }
  if (Api.Kind == CallKind::ListRead)
    return yield(Call, elementOf(*Object, Call.getNumArgs() ? Call.getArg(0) : nullptr));
  forgetReferenceArguments(Call, *Call.getMethodDecl());
  return untracked(Call);
}

ValueFact DeviceFlow::evaluateListOp(const CallExpr &Call, ApiCall Api, StringRef Name) {
  if (Call.getNumArgs() == 0)
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::No);
  llvm::SmallVector<Operand, 3> Operands;
  if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements =
          listElements(Call.getArg(0))) {
    for (const Expr *Element : *Elements)
      Operands.push_back(operand(Element, /*Promotable=*/Api.AdmitsCpuScalar));
  } else {
    // A list variable: one operand per device its elements may be on.
    const Expr *ListExpr = convertedValue(Call.getArg(0));
    ValueFact List = factOf(ListExpr);
    if (!List.Devices.isKnown())
      return resultOf(Call, List.Devices.isBottom() ? DeviceSet::unknown() : List.Devices,
                      ZeroDim::No);
    for (const AbstractDevice &Device : List.Devices.devices()) {
      ValueFact Element = ValueFact::on(DeviceSet::of(Device), ZeroDim::No);
      Element.setOrigin(List.originOf(Device));
      Operands.push_back({ListExpr, Element, /*Promotable=*/Api.AdmitsCpuScalar});
    }
  }
  return operation(Call, Name, Api.Rank, std::move(Operands));
}

} // namespace placelint::analysis
