// Modules: `Module::to(device)` moves the module in place; calling a module
// (`model(x)`, `model->forward(x)`) is an operation between its parameters
// and its input.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateModuleMethod(const CXXMemberCallExpr &Call, StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  if (Name == "forward")
    return applyModule(Call, *Object, Args);
  if (Name != "to" || Args.empty())
    return untracked(Call);
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

ValueFact DeviceFlow::applyModule(const Expr &Call, const Expr &ModuleExpr,
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
  // The module operand is named by its variable (`model`, not `model->`);
  // its parameters are never 0-dim scalars.
  Operand ModuleOperand{moduleOperand(&ModuleExpr), Module};
  ModuleOperand.Fact.Dim = ZeroDim::No;
  Operand InputOperand = operand(Input);
  ValueFact InputFact = InputOperand.Fact;
  operation(Call, "forward", {std::move(InputOperand), std::move(ModuleOperand)});
  return resultOf(Call, InputFact.Devices.isKnown() ? InputFact.Devices : Module.Devices,
                  ZeroDim::Unknown);
}

} // namespace placelint::analysis
