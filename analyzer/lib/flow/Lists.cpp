// Lists of tensors: a std::vector<Tensor> (or of IValues) is tracked as one
// fact, the join of its elements' (empty: bottom); push_back/emplace_back
// add to it, `v[i]`, `at`, `front`, `back` and a range-for read an element.
// cat / stack need every element on one device (a 0-dim cpu element is no
// exception); the result is there, never 0-dim.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::elementFact(const Expr *Element) {
  // `IValue(t)` and other converting constructions hold the tensor t.
  const Expr *Value = convertedValue(Element);
  if (Model.isTensor(Value->getType()))
    return factOf(Value);
  return Model.isTensor(Element->getType()) ? factOf(Element) : ValueFact::unknown();
}

ValueFact DeviceFlow::newList(llvm::ArrayRef<const Expr *> Elements) {
  ValueFact List;
  for (const Expr *Element : Elements)
    List = List.join(elementFact(Element));
  return List;
}

ValueFact DeviceFlow::evaluateListMethod(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  const ValueDecl *List = trackedDecl(Object);
  if ((Name == "push_back" || Name == "emplace_back") && Call.getNumArgs() >= 1) {
    if (List)
      Current[List] = factOf(Object).join(elementFact(Call.getArg(0)));
    return ValueFact();
  }
  if (Name == "clear") {
    if (List)
      Current[List] = ValueFact();
    return ValueFact();
  }
  if (Name == "at" || Name == "front" || Name == "back")
    return factOf(Object);
  forgetReferenceArguments(Call, *Call.getMethodDecl());
  return untracked(Call);
}

ValueFact DeviceFlow::evaluateListOp(const CallExpr &Call, StringRef Name) {
  if (Call.getNumArgs() == 0)
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::No);
  llvm::SmallVector<Operand, 3> Operands;
  if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements =
          listElements(Call.getArg(0))) {
    for (const Expr *Element : *Elements)
      Operands.push_back(operand(Element, /*Promotable=*/false));
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
      Operands.push_back({ListExpr, Element, /*Promotable=*/false});
    }
  }
  ValueFact Result = operation(Call, Name, std::move(Operands));
  Result.Dim = ZeroDim::No;
  return Result;
}

} // namespace placelint::analysis
