// The transfers a callee makes of what its callers give it, exported in its
// summary (CallSummary::Transfers) for the caller's loop rules.
#include "flow/FunctionSummaries.h"

#include "BodyFacts.h"
#include "Syntax.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <vector>

namespace placelint::analysis {

using namespace clang;

namespace {

// The input of the call that a variable of Callee is, unchanged in it: a
// parameter, or for a lambda a variable of the function that made it.
std::optional<CallInput> inputOf(const ValueDecl &Var, const FunctionDecl &Callee, BodyFacts &Body) {
  if (Body.isChangedIn(Var, *Callee.getBody()))
    return std::nullopt;
  if (const auto *Param = dyn_cast<ParmVarDecl>(&Var); Param && Param->getDeclContext() == &Callee)
    return CallInput{Param->getFunctionScopeIndex(), nullptr};
  const auto *Method = dyn_cast<CXXMethodDecl>(&Callee);
  if (Method && Method->getParent()->isLambda() && isa<VarDecl>(Var) &&
      !Callee.Encloses(Var.getDeclContext()))
    return CallInput{std::nullopt, &Var};
  return std::nullopt;
}

// The input E reads, when it reads nothing else that changes.
std::optional<CallInput> inputBehind(const Expr &E, const FunctionDecl &Callee, BodyFacts &Body) {
  const ValueDecl *Root = rootDeclThroughHolders(&E);
  if (!Root || !Body.isInvariantIn(E, *Callee.getBody()))
    return std::nullopt;
  return inputOf(*Root, Callee, Body);
}

} // namespace

std::vector<CalleeTransfer> FunctionSummaries::transfersOfInputs(const FunctionDecl &Callee,
                                                                 const FunctionFacts &Facts) {
  BodyFacts &Body = Facts.body();
  const Stmt &Whole = *Callee.getBody();
  // The callee's own Device variables mean nothing to the caller.
  auto Export = [&](const DeviceSet &Devices) {
    return Devices.forgetIf([&](const AbstractDevice &D) {
      return !D.isConcrete() && D.symbol() && !D.isModuleDevice() &&
             Callee.Encloses(D.symbol()->getDeclContext());
    });
  };
  // Every other input of a transfer (its device) is given too, or the same
  // on every call.
  auto AddInputs = [&](CalleeTransfer &Moved, llvm::ArrayRef<const Expr *> Reads) {
    for (const Expr *Read : Reads) {
      if (std::optional<CallInput> Input = inputBehind(*Read, Callee, Body))
        Moved.Inputs.push_back(*Input);
      else if (!Body.isInvariantIn(*Read, Whole))
        return false;
    }
    return true;
  };
  std::vector<CalleeTransfer> Found;
  for (const Transfer &T : Facts.transfers()) {
    if (T.IsSync || Body.loopAround(*T.Call) || Body.isPeriodic(*T.Call) ||
        llvm::is_contained(Body.discardedTransfers(), T.Call))
      continue;
    std::optional<CallInput> Tensor = inputBehind(*T.Call->getImplicitObjectArgument(), Callee, Body);
    CalleeTransfer Moved{T.Call, Export(T.Source.Devices), Export(T.Target), {}};
    if (!Tensor)
      continue;
    Moved.Inputs.push_back(*Tensor);
    llvm::SmallVector<const Expr *, 4> Reads(T.Call->arguments());
    if (AddInputs(Moved, Reads))
      Found.push_back(std::move(Moved));
  }
  // Deeper: what a call here gives a function that moves it.
  for (const TransferThroughCall &Deeper : Facts.calleeTransfers()) {
    if (Body.loopAroundCall(*Deeper.Through) || Body.isPeriodic(*Deeper.Through))
      continue;
    CalleeTransfer Moved{Deeper.Transfer.Call, Export(Deeper.Transfer.Source),
                         Export(Deeper.Transfer.Target), {}};
    bool Stable = true;
    for (unsigned I = 0; Stable && I < Deeper.Transfer.Inputs.size(); ++I) {
      const Expr *Given = Deeper.Given[I];
      const ValueDecl *Captured = Deeper.Transfer.Inputs[I].Captured;
      std::optional<CallInput> Input = Given      ? inputBehind(*Given, Callee, Body)
                                       : Captured ? inputOf(*Captured, Callee, Body)
                                                  : std::nullopt;
      if (Input)
        Moved.Inputs.push_back(*Input);
      else if (I == 0)
        Stable = false; // the tensor moved is not what a call gives
      else if (Given)
        Stable = Body.isInvariantIn(*Given, Whole);
      else
        Stable = Captured && !Body.isChangedIn(*Captured, Whole);
    }
    if (Stable)
      Found.push_back(std::move(Moved));
  }
  return Found;
}

} // namespace placelint::analysis
