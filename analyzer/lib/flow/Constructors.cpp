// Constructions: copies pass the value on; a Device, TensorOptions or a
// module is made on the device its arguments name (modules on the cpu).
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateConstruct(const CXXConstructExpr &Construct) {
  ValueKind Kind = Model.classify(Construct.getType());
  bool IsCopy = Construct.getNumArgs() >= 1 &&
                Construct.getConstructor()->isCopyOrMoveConstructor();
  if (IsCopy && Kind != ValueKind::Other)
    return factOf(Construct.getArg(0));
  llvm::SmallVector<const Expr *, 4> Args(Construct.arguments());
  // An optimizer is given the tensors it updates: `Adam({w, b}, ...)`, or a
  // vector of them.
  if (Model.isOptimizer(Construct.getType()) && !Args.empty()) {
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(Args[0]))
      for (const Expr *Element : *Elements)
        Facts.record(ParameterUse{&Construct, Element, factOf(Element),
                                  ParameterUseKind::Optimizer});
    else if (Model.classify(Args[0]->getType()) == ValueKind::TensorList)
      Facts.record(ParameterUse{&Construct, Args[0], factOf(Args[0]),
                                ParameterUseKind::Optimizer});
  }
  switch (Kind) {
  case ValueKind::Device:
    return deviceFromArguments(Args);
  case ValueKind::TensorOptions: {
    ValueKind FirstKind =
        Args.empty() ? ValueKind::Other : Model.classify(Args[0]->getType());
    bool NamesDevice = !Args.empty() && (stringLiteralIn(Args[0]) ||
                                         FirstKind == ValueKind::Device ||
                                         FirstKind == ValueKind::DeviceType);
    if (NamesDevice)
      return deviceFromArguments(Args);
    ValueFact Options = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
    Options.OptionsWithoutDevice = true;
    return Options;
  }
  case ValueKind::Module:
    return newModule(Construct, Construct.getBeginLoc(), Args);
  case ValueKind::TensorList:
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(&Construct))
      return newList(*Elements);
    // vector<Tensor>(n, t): n copies of t; vector<Tensor>(): empty.
    return Args.size() == 2 ? newList(Args[1]) : Args.empty() ? ValueFact()
                                                              : ValueFact::unknown();
  case ValueKind::Tensor:
  case ValueKind::DeviceType:
  case ValueKind::Other:
    break;
  }
  return ValueFact::unknown();
}

} // namespace placelint::analysis
