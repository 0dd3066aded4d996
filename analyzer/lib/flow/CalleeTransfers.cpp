// The transfers a callee makes once per call, exported in its summary
// (CallSummary::Transfers) for the caller's loop rules: each with what a
// call gives it (the tensor moved, the device), so that a caller can tell
// whether it is the same copy on every iteration of its loop.
#include "flow/FunctionSummaries.h"

#include "BodyFacts.h"
#include "Syntax.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"
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
  // A field of a method's object: what the caller's object holds there.
  if (const auto *Field = dyn_cast<FieldDecl>(&Var); Field && Method && !Method->isStatic() &&
                                                     Field->getParent() == Method->getParent())
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
  // Each call makes what the callee makes once per call: not what its own
  // loops or periodic branches do (judged there), nor a discarded transfer
  // (no copy is kept).
  bool Loops = findInTree(&Whole, [](const Stmt &S) {
    return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  });
  // A copy to the host in a loop of the callee with no inner loop is made
  // on every iteration of that loop, whoever calls it: exported with the
  // loop, for the callers that know the device it copies from (a helper's
  // `preds[i].item()` over what the caller gives). Other transfers in its
  // loops are judged in the callee.
  auto RepeatsToHost = [&](const Stmt &Loop, const DeviceSet &Target, bool IntoDestination) {
    std::optional<AbstractDevice> To = Target.single();
    return To && To->isCpu() && !IntoDestination && !Body.hasInnerLoop(Loop);
  };
  std::vector<CalleeTransfer> Found;
  for (const Transfer &T : Facts.transfers()) {
    const Stmt *Loop = Body.loopAround(*T.Call);
    if ((Loop && !RepeatsToHost(*Loop, T.Target, T.IntoDestination)) ||
        Body.isPeriodic(*T.Call) || llvm::is_contained(Body.discardedTransfers(), T.Call))
      continue;
    CalleeTransfer Moved{T.Call, Export(T.Source.Devices), Export(T.Target), T.IsSync,
                         T.NonBlocking, T.IntoDestination};
    Moved.CalleeLoops = Loops;
    Moved.OwnLoop = Loop;
    if (std::optional<CallInput> Tensor = inputBehind(*T.Tensor, Callee, Body)) {
      Moved.MovesInput = true;
      Moved.Inputs.push_back(*Tensor);
      // What else the copy reads: to()'s device, copy_'s destination.
      llvm::SmallVector<const Expr *, 4> Reads;
      if (T.IntoDestination)
        Reads.push_back(T.Call->getImplicitObjectArgument());
      for (const Expr *Arg : T.Call->arguments())
        if (Arg != T.Tensor)
          Reads.push_back(Arg);
      Moved.SameOnEachCall = AddInputs(Moved, Reads);
    }
    Found.push_back(std::move(Moved));
  }
  // Deeper: what the functions called here make once per call, when not
  // in a loop or a periodic branch here; and their copies to the host
  // repeated in a loop, theirs or one here.
  for (const TransferThroughCall &Deeper : Facts.calleeTransfers()) {
    const CalleeTransfer &There = Deeper.Transfer;
    const Stmt *Loop = There.OwnLoop;
    if (!Loop) {
      Loop = Body.loopAroundCall(*Deeper.Through);
      if ((Loop && !RepeatsToHost(*Loop, There.Target, There.IntoDestination)) ||
          Body.isPeriodic(*Deeper.Through))
        continue;
    }
    CalleeTransfer Moved{There.Call, Export(There.Source), Export(There.Target), There.IsSync,
                         There.NonBlocking, There.IntoDestination};
    Moved.CalleeLoops = Loops || There.CalleeLoops;
    Moved.OwnLoop = Loop;
    // The input a call here gave the deeper function, as an input of Callee.
    auto InputHere = [&](unsigned I) -> std::optional<CallInput> {
      if (const Expr *Given = Deeper.Given[I])
        return inputBehind(*Given, Callee, Body);
      if (const ValueDecl *Captured = There.Inputs[I].Captured)
        return inputOf(*Captured, Callee, Body);
      return std::nullopt;
    };
    std::optional<CallInput> Tensor = There.MovesInput ? InputHere(0) : std::nullopt;
    if (Tensor) {
      Moved.MovesInput = true;
      Moved.Inputs.push_back(*Tensor);
      Moved.SameOnEachCall = There.SameOnEachCall;
      for (unsigned I = 1; Moved.SameOnEachCall && I < There.Inputs.size(); ++I) {
        const Expr *Given = Deeper.Given[I];
        const ValueDecl *Captured = There.Inputs[I].Captured;
        if (std::optional<CallInput> Input = InputHere(I))
          Moved.Inputs.push_back(*Input);
        else if (Given)
          Moved.SameOnEachCall = Body.isInvariantIn(*Given, Whole);
        else
          Moved.SameOnEachCall = Captured && !Body.isChangedIn(*Captured, Whole);
      }
    }
    Found.push_back(std::move(Moved));
  }
  return Found;
}

} // namespace placelint::analysis
