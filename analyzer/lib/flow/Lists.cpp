// cat / stack over a list of tensors: every element on one device (a 0-dim
// cpu element is no exception), and the result there, never 0-dim.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateListOp(const CallExpr &Call, StringRef Name) {
  std::optional<llvm::SmallVector<const Expr *, 4>> Elements =
      Call.getNumArgs() == 0 ? std::nullopt : listElements(Call.getArg(0));
  if (!Elements)
    return resultOf(Call, DeviceSet::unknown(), ZeroDim::No);
  llvm::SmallVector<Operand, 3> Operands;
  for (const Expr *Element : *Elements)
    Operands.push_back(operand(Element, /*Promotable=*/false));
  ValueFact Result = operation(Call, Name, std::move(Operands));
  Result.Dim = ZeroDim::No;
  return Result;
}

} // namespace placelint::analysis
