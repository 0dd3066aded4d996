// placement-transfer-in-loop: inside a loop, a transfer that moves the same
// unchanged tensor on every iteration, a round trip (to a device and
// straight back), or a copy from a device to the host
// (docs/rules/placement-transfer-in-loop.md).
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "CallIndex.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Whether a transfer from From to Target moves nothing: both are one and
// the same device, so to() returns the tensor itself.
bool alreadyThere(const DeviceSet &From, const DeviceSet &Target) {
  std::optional<AbstractDevice> Source = From.single(), To = Target.single();
  return Source && To && compare(*Source, *To) == Agreement::Same;
}

// The transfer whose copy Value is: made by it, or, for the host result of
// a helper of the unit, by it from the copy to the host the helper was
// given (`f(x.cpu()).to(dev)`).
const Transfer *transferBehind(const ValueFact &Value, const FunctionFacts &Facts) {
  if (const Transfer *Made = Facts.transferThatMade(Value))
    return Made;
  // A host value computed from such a copy: by a helper of the unit, or a
  // host-only op (`multinomial(probs.cpu(), 1)`).
  ApiCall Api;
  const CallExpr *Computed = Facts.callThatMade(Value, Api);
  std::optional<AbstractDevice> On = Value.Devices.single();
  if (!Computed || Api.Kind == CallKind::Transfer || !On || !On->isCpu())
    return nullptr;
  llvm::SmallVector<const Expr *, 3> Inputs(Computed->arguments());
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Computed))
    Inputs.push_back(Method->getImplicitObjectArgument());
  for (const Expr *Input : Inputs)
    if (const ValueFact *Given = Facts.factAt(Input); Given && Given->Devices == Value.Devices)
      if (const Transfer *Made = Facts.transferThatMade(*Given))
        return Made;
  return nullptr;
}

// Source (a value of this function) moved to Target straight back to where
// the previous transfer, in this loop, took it from: that transfer.
const Transfer *roundTripFrom(const ValueFact &Source, const DeviceSet &Target, const Stmt &Loop,
                              const FunctionFacts &Facts) {
  std::optional<AbstractDevice> From = Source.Devices.single();
  std::optional<AbstractDevice> To = Target.single();
  const Transfer *Previous = transferBehind(Source, Facts);
  if (!Previous || Facts.body().loopAround(*Previous->Call) != &Loop || !To || !From)
    return nullptr;
  // Where it came from may be unknown (a loaded batch): moving it to a
  // device and straight to the host is a round trip wherever it was.
  const DeviceSet &Earlier = Previous->Source.Devices;
  std::optional<AbstractDevice> Before = Earlier.single();
  bool BackToSource =
      Earlier.isUnknown() || (Before && compare(*Before, *To) == Agreement::Same);
  return BackToSource && compare(*From, *To) != Agreement::Same ? Previous : nullptr;
}

// State carried across iterations that goes down and up again: `h` moved
// to a device here, and assigned a copy moved to the host elsewhere in the
// loop (`h = out.cpu();`). Returns that copy's transfer.
const Transfer *parkedOnTheHost(const Transfer &T, const Stmt &Loop,
                                const FunctionFacts &Facts) {
  BodyFacts &Body = Facts.body();
  std::optional<AbstractDevice> To = T.Target.single();
  const ValueDecl *Var = trackedDecl(stripCopies(T.Call->getImplicitObjectArgument()));
  if (T.IsSync || !To || To->isCpu() || !Var)
    return nullptr;
  for (const Expr *Value : Body.assignmentsTo(*Var))
    for (const Transfer &Down : Facts.transfers())
      if (stripCopies(Value) == Down.Call && Body.loopAround(*Down.Call) == &Loop &&
          Down.Target.single() && Down.Target.single()->isCpu())
        return &Down;
  return nullptr;
}

// What a getter gives: a call of a lambda whose body only returns a
// variable it captured (`auto held = [&] { return w; }; held()`, also
// converted, as a device to TensorOptions) reads that variable; E itself
// otherwise.
const Expr *throughGetter(const Expr *E) {
  const auto *Call = dyn_cast<CXXOperatorCallExpr>(constructedFrom(E));
  const auto *Operator =
      Call && Call->getOperator() == OO_Call && Call->getNumArgs() == 1
          ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee())
          : nullptr;
  const auto *Block = Operator && Operator->getParent()->isLambda()
                          ? dyn_cast_or_null<CompoundStmt>(Operator->getBody())
                          : nullptr;
  const auto *Return = Block && Block->size() == 1 ? dyn_cast<ReturnStmt>(Block->body_front())
                                                   : nullptr;
  const Expr *Value = Return ? Return->getRetValue() : nullptr;
  const auto *Ref = Value ? dyn_cast<DeclRefExpr>(stripCopies(Value)->IgnoreParenImpCasts()) : nullptr;
  return Ref && Ref->refersToEnclosingVariableOrCapture() ? Ref : E;
}

// The static member or global that E reads, through what std holders give
// back (`Holder::value.value()`, also converted, as a device to
// TensorOptions), or null.
const VarDecl *globalBehind(const Expr *E) {
  for (E = constructedFrom(E);;) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      return Var && Var->hasGlobalStorage() && !Var->isStaticLocal() ? Var : nullptr;
    }
    const auto *Read = dyn_cast<CXXMemberCallExpr>(E);
    if (!Read || Read->getNumArgs() != 0 || !Read->getMethodDecl()->getParent()->isInStdNamespace())
      return nullptr;
    E = Read->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
}

// The statement a loop repeats.
const Stmt *bodyOf(const Stmt &Loop) {
  if (const auto *For = dyn_cast<ForStmt>(&Loop))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(&Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(&Loop))
    return Do->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(&Loop))
    return RangeFor->getBody();
  return nullptr;
}

// The value `Var = value;` gives Var, when S is that assignment.
const Expr *assignedTo(const VarDecl &Var, const Stmt &S) {
  auto Names = [&](const Expr *Target) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == &Var;
  };
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(&S);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
      Names(Assign->getArg(0)))
    return Assign->getArg(1);
  if (const auto *Assign = dyn_cast<BinaryOperator>(&S);
      Assign && Assign->getOpcode() == BO_Assign && Names(Assign->getLHS()))
    return Assign->getRHS();
  return nullptr;
}

// Whether a static member or global used as a holder gets the same value on
// every iteration of Loop before it is read: the first statement of the
// body that names it sets it from a value that does not change in the loop
// (`Holder::value = weights;`), and no later statement changes it.
bool setEachIterationFromInvariant(const VarDecl &Var, const Stmt &Loop, BodyFacts &Body) {
  const auto *Block = dyn_cast_or_null<CompoundStmt>(bodyOf(Loop));
  if (!Block)
    return false;
  bool Set = false;
  for (const Stmt *S : Block->body()) {
    if (!Set) {
      const Expr *Value = assignedTo(Var, *S);
      bool Names = findInTree(S, [&](const Stmt &Child) {
        const auto *Ref = dyn_cast<DeclRefExpr>(&Child);
        return Ref && Ref->getDecl() == &Var;
      });
      if (Names && !(Value && Body.isInvariantIn(*Value, Loop)))
        return false;
      Set = Value;
    } else if (Body.changesIn(Var, *S) && !assignedTo(Var, *S)) {
      return false;
    } else if (const Expr *Again = assignedTo(Var, *S); Again && !Body.isInvariantIn(*Again, Loop)) {
      return false;
    }
  }
  return Set;
}

// Whether E, evaluated in Loop, gives the same value on every iteration:
// also when read through a getter lambda or a static member the loop sets
// from an unchanged value.
bool givesSameValue(const Expr &E, const Stmt &Loop, BodyFacts &Body) {
  const Expr *Read = throughGetter(&E);
  if (Body.isInvariantIn(*Read, Loop))
    return true;
  const VarDecl *Held = globalBehind(Read);
  return Held && setEachIterationFromInvariant(*Held, Loop, Body);
}

// The same tensor, unchanged, to the same place on every iteration (and not
// known to be there already). From an unknown device (a parameter, a
// field) it is either no copy at all or the same copy every time: hoist it
// either way.
bool isInvariant(const Transfer &T, const Stmt &Loop, BodyFacts &Body) {
  if (T.IsSync || alreadyThere(T.Source.Devices, T.Target))
    return false;
  // A variable, a field of one (`rollout.observations`), or what holds it:
  // an element, an optional's value, a reference, read with an index that
  // does not change (`held[0]` of `std::vector<Tensor> held{w}` made in the
  // loop from `w`, which does not change, is `w`); a getter's value; a
  // static member set from it.
  const Expr *Receiver = throughGetter(stripCopies(T.Call->getImplicitObjectArgument()));
  bool Unchanged = false;
  if (const VarDecl *Held = globalBehind(Receiver))
    Unchanged = setEachIterationFromInvariant(*Held, Loop, Body);
  else if (const ValueDecl *Source = rootDeclThroughHolders(Receiver))
    Unchanged = !Body.isChangedIn(*Source, Loop) && Body.isInvariantIn(*Receiver, Loop);
  return Unchanged && llvm::all_of(T.Call->arguments(), [&](const Expr *Arg) {
           return givesSameValue(*Arg, Loop, Body);
         });
}

// The container that Receiver is an element of (`chunks[i]`, `v.at(i)`):
// pieces stored once (a rollout split into minibatches). A slice taken in
// the loop (`images.narrow(0, i, n)`, `obs[i]`) is how a dataset is walked
// batch by batch; a dataset need not fit on the device, so it is not one.
const Expr *wholeOf(const Expr *Receiver, const ApiModel &Model) {
  const Expr *E = stripCopies(Receiver)->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    E = Op->getArg(0);
  else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
           Call && Model.classifyCall(*Call).Kind == CallKind::ListRead)
    E = Call->getImplicitObjectArgument();
  else
    return nullptr;
  E = stripCopies(E);
  return trackedDecl(E) && !Model.isTensor(E->getType()) ? E : nullptr;
}

// A part of a variable moved in an inner loop, the variable unchanged in an
// outer one: each part crosses the bus once per outer iteration. Returns
// that outer loop.
const Stmt *outerLoopOfWhole(const Transfer &T, const Stmt &Loop, const Expr &Whole,
                             BodyFacts &Body) {
  const ValueDecl *Var = trackedDecl(&Whole);
  std::optional<AbstractDevice> To = T.Target.single();
  if (!Var || !To || To->isCpu())
    return nullptr;
  const Stmt *Found = nullptr;
  for (const Stmt *Outer = Body.parentLoop(Loop); Outer; Outer = Body.parentLoop(*Outer)) {
    const auto *Local = dyn_cast<VarDecl>(Var);
    if ((Local && Body.isDeclaredIn(*Local, *Outer)) || Body.isChangedIn(*Var, *Outer))
      break;
    Found = Outer;
  }
  return Found;
}

// A copy from a device (every device the tensor may be on; a Device
// variable's may be CUDA) to the host.
bool isSync(const DeviceSet &From, const DeviceSet &Target) {
  std::optional<AbstractDevice> To = Target.single();
  return To && To->isCpu() && From.excludesCpu();
}

// Whether Target is inside S under a loop or a lambda (called no one knows
// how often); Repeats: S is already under one.
bool repeatsUnder(const Stmt *S, const Expr &Target, bool Repeats) {
  if (!S)
    return false;
  if (S == &Target)
    return Repeats;
  Repeats = Repeats || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S);
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return repeatsUnder(Child, Target, Repeats); });
}

// Whether Call sits in a loop of the function it is in, or in a lambda.
// (A walk down the caller's body: no parent map of a function this
// analysis did not build.)
bool repeatsIn(const Expr &Call, const FunctionDecl &Caller) {
  if (isLambdaCallOperator(&Caller) || !Caller.getBody())
    return true;
  return repeatsUnder(Caller.getBody(), Call, false);
}

// Whether every call of the unit's callers of Function is outside loops,
// and so are theirs, up the chain (`decode()` called once by `predict()`,
// itself called per frame, runs per frame). A caller no call of the unit
// reaches (main, an entry point) runs once.
bool callersRunOnce(const FunctionDecl &Function, CallIndex &Calls,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!Seen.insert(&Function).second)
    return true;
  return llvm::none_of(Calls.callsOf(Function), [&](const CallIndex::CallSite &Site) {
    if (repeatsIn(*Site.Call, *Site.Caller))
      return true;
    const auto *Caller = dyn_cast<CXXMethodDecl>(Site.Caller);
    if ((Caller && Caller->isVirtual()) || Calls.escapes(*Site.Caller))
      return false;
    return !callersRunOnce(*Site.Caller, Calls, Seen);
  });
}

// Whether the unit calls Method, and only outside loops, from callers
// that run once (a `run()` called once from main), so a field it moves is
// moved once. Unknown for a method called otherwise (a callback, virtually).
bool calledOnlyOutsideLoops(const CXXMethodDecl &Method, const FunctionFacts &Facts) {
  if (Method.isVirtual())
    return false;
  CallIndex &Calls = Facts.calls();
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return !Calls.callsOf(Method).empty() && !Calls.escapes(Method) &&
         callersRunOnce(Method, Calls, Seen);
}

// The parameter of Method whose device T moves to, when that is the
// target (`to(deltas.device())`): unknown in the method, but whatever it is,
// the same field goes to it on every call.
const Expr *deviceOfParameter(const Transfer &T, const CXXMethodDecl &Method, const ApiModel &Model) {
  const auto *Read = T.Call->getNumArgs() > 0
                         ? dyn_cast<CXXMemberCallExpr>(constructedFrom(T.Call->getArg(0)))
                         : nullptr;
  if (!Read || Model.classifyCall(*Read).Kind != CallKind::DeviceOf)
    return nullptr;
  const Expr *Tensor = Read->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Tensor);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Param && Param->getDeclContext() == &Method ? Tensor : nullptr;
}

// A method that moves a field of its object to a device on every call
// (`palette_.to(device_)` in a per-frame method, `pos_.to(x.device())` in
// forward): the field does not change between calls, so it belongs on the
// device once (moved in the constructor, or registered as a buffer).
void diagnosePerCall(const Transfer &T, const FunctionFacts &Facts, FindingsHandler &Handler) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Facts.function());
  std::optional<AbstractDevice> To = T.Target.single();
  const ValueDecl *Field = trackedDecl(stripCopies(T.Call->getImplicitObjectArgument()));
  if (T.IsSync || !Method || isa<CXXConstructorDecl>(Method) || Method->isStatic() ||
      Method->getParent()->isLambda() || !Field || !isa<FieldDecl>(Field) ||
      (To && To->isCpu()) || !Facts.body().assignmentsTo(*Field).empty() ||
      Facts.body().movesThis())
    return;
  // A target unknown here is judged only as a given tensor's device, for a
  // field made on the host (not a registered buffer, which moves with the
  // module and may be there already).
  const Expr *TargetDeviceOf = nullptr;
  if (!T.Target.isKnown()) {
    std::optional<AbstractDevice> From = T.Source.Devices.single();
    TargetDeviceOf = From && From->isCpu() ? deviceOfParameter(T, *Method, Facts.body().model())
                                           : nullptr;
    if (!TargetDeviceOf)
      return;
  }
  if (alreadyThere(T.Source.Devices, T.Target))
    return;
  // A batch's own `to()` returns the moved copies: fresh data on each call.
  const AbstractValue &Returned = Facts.returned();
  if (Returned.Whole.MadeBy == T.Call ||
      llvm::any_of(Returned.Parts, [&](const AbstractValue::Part &Part) {
        return Part.second.MadeBy == T.Call;
      }))
    return;
  if (calledOnlyOutsideLoops(*Method, Facts))
    return;
  LoopTransferFinding Finding{T.Call, T.Call->getImplicitObjectArgument(), nullptr, T.Target};
  Finding.PerCallOf = Method;
  Finding.TargetDeviceOf = TargetDeviceOf;
  Handler.onInvariantTransferInLoop(Finding);
}

// Whether a method called at Through moves a field of its object and hands
// the copy back (`return data.to(device);`): each call's copy is the
// caller's. A method that keeps the copy to itself moves the field again on
// every call, which diagnosePerCall reports in the method.
bool returnsMovedField(const Expr &Through, const CXXMemberCallExpr &Transfer) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(&Through);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  const FunctionDecl *Definition = Method ? Method->getDefinition() : nullptr;
  return Definition && findInTree(Definition->getBody(), [&](const Stmt &S) {
           const auto *Return = dyn_cast<ReturnStmt>(&S);
           return Return && Return->getRetValue() &&
                  stripCopies(Return->getRetValue())->IgnoreParenImpCasts() == &Transfer;
         });
}

// Whether what a call here gives a function, for one input of a transfer
// there, is the same on every iteration of Loop: an invariant expression, or
// a variable a lambda captured that does not change.
bool givenUnchanged(const Expr *Given, const CallInput &Input, const Stmt &Loop, BodyFacts &Body) {
  if (Given)
    return Body.isInvariantIn(*Given, Loop);
  const auto *Var = dyn_cast_or_null<VarDecl>(Input.Captured);
  return Var && Body.isUnchangedIn(*Var, Loop);
}

// Reports a sync, Call, of Source in Loop, and says whether it did: once
// per iteration of a loop with no inner loop (a sync once per epoch, after
// the batch loop, is not the hot path).
bool diagnoseSync(const CXXMemberCallExpr &Call, const DeviceSet &Source, const DeviceSet &Target,
                  bool NonBlocking, const Stmt &Loop, const FunctionFacts &Facts,
                  FindingsHandler &Handler) {
  // A non_blocking download is queued: the host does not wait for it (the
  // way to gather each iteration's results without stalling).
  if (NonBlocking || !isSync(Source, Target) || Facts.body().hasInnerLoop(Loop))
    return false;
  SyncFinding Finding;
  Finding.Call = &Call;
  Finding.Receiver = Call.getImplicitObjectArgument();
  Finding.Loop = &Loop;
  Finding.Target = Target;
  Finding.Source = Source;
  Finding.FromDeviceVariable = !Source.allConcrete();
  Handler.onSyncInLoop(Finding);
  return true;
}

// A helper, a lambda, a std::function's target, a std algorithm's callback
// or a method called in a loop makes its transfers (outside its own loops)
// once per iteration: each is judged as if written in the loop, and
// reported where it is, in the callee. A round trip is against the transfer
// in this loop that made what the call gives; an invariant move, of what
// the call gives unchanged on every iteration.
void diagnoseThroughCalls(const FunctionFacts &Facts, FindingsHandler &Handler) {
  BodyFacts &Body = Facts.body();
  llvm::SmallPtrSet<const Expr *, 4> Reported;
  for (const TransferThroughCall &Moved : Facts.calleeTransfers()) {
    const CalleeTransfer &T = Moved.Transfer;
    // A copy to the host in a loop of the callee is once per iteration of
    // that loop, wherever the call is: a sync when the call gives it a
    // device tensor.
    const Stmt *Loop = T.OwnLoop ? T.OwnLoop : Body.loopAroundCall(*Moved.Through);
    if (!Loop || T.IntoDestination || (!T.OwnLoop && Body.isPeriodic(*Moved.Through)) ||
        !T.Target.isKnown() || T.Source.isBottom() || Reported.contains(T.Call) ||
        alreadyThere(T.Source, T.Target))
      continue;
    // Inside a method, "the module's device" is its object's, which this
    // record does not say.
    if (llvm::any_of(T.Source.devices(), [](const AbstractDevice &D) { return D.isModuleDevice(); }))
      continue;
    if (T.OwnLoop) {
      if (diagnoseSync(*T.Call, T.Source, T.Target, T.NonBlocking, *Loop, Facts, Handler))
        Reported.insert(T.Call);
      continue;
    }
    const Expr *Receiver = T.Call->getImplicitObjectArgument();
    const Expr *GivenTensor = T.MovesInput ? Moved.Given.front() : nullptr;
    const ValueFact *Given = GivenTensor ? Facts.factAt(GivenTensor) : nullptr;
    bool MovesField = T.MovesInput && isa_and_nonnull<FieldDecl>(T.Inputs.front().Captured);
    bool Unchanged = T.MovesInput && T.SameOnEachCall &&
                     (!MovesField || returnsMovedField(*Moved.Through, *T.Call));
    for (unsigned I = 0; Unchanged && I < T.Inputs.size(); ++I)
      Unchanged = givenUnchanged(Moved.Given[I], T.Inputs[I], *Loop, Body);
    if (const Transfer *Previous =
            Given && !T.IsSync ? roundTripFrom(*Given, T.Target, *Loop, Facts) : nullptr) {
      RoundTripFinding Finding;
      Finding.Call = T.Call;
      Finding.Receiver = Receiver;
      Finding.Loop = Loop;
      Finding.Target = T.Target;
      Finding.FirstTransfer = Previous->Call;
      Finding.Intermediate = Given->Devices;
      Handler.onRoundTripInLoop(Finding);
    } else if (Unchanged && !T.IsSync) {
      Handler.onInvariantTransferInLoop({T.Call, Receiver, Loop, T.Target});
    } else if (T.CalleeLoops ||
               !diagnoseSync(*T.Call, T.Source, T.Target, T.NonBlocking, *Loop, Facts, Handler)) {
      continue;
    }
    Reported.insert(T.Call);
  }
}

// Host values written into a device tensor one element at a time in a loop
// (`t[i][j] = rows[i][j]`): each write is an operation of its own with its
// value sent from the host, once per iteration; filling a host tensor and
// moving it once is one copy.
void diagnoseElementWrites(const FunctionFacts &Facts, FindingsHandler &Handler) {
  BodyFacts &Body = Facts.body();
  for (const ElementWrite &Write : Facts.elementWrites())
    if (const Stmt *Loop = Body.loopAroundCall(*Write.Call); Loop && !Body.isPeriodic(*Write.Call))
      Handler.onElementWriteInLoop({Write.Call, Write.Tensor, Loop, Write.Target});
}

} // namespace

void diagnoseTransferInLoop(const FunctionFacts &Facts, FindingsHandler &Handler) {
  BodyFacts &Body = Facts.body();
  diagnoseThroughCalls(Facts, Handler);
  diagnoseElementWrites(Facts, Handler);
  for (const Transfer &T : Facts.transfers()) {
    // A copy into a buffer made before the loop is this rule's fix, not
    // its bug (`staging.copy_(batch)`).
    if (T.IntoDestination)
      continue;
    const Stmt *Loop = Body.loopAround(*T.Call);
    if (!Loop) {
      diagnosePerCall(T, Facts, Handler);
      continue;
    }
    // Under `if (step % N == 0)` it is not every iteration.
    if (!T.Target.isKnown() || T.Source.Devices.isBottom() || Body.isPeriodic(*T.Call))
      continue;
    // Already where it goes: to() returns the tensor itself, nothing moves.
    if (alreadyThere(T.Source.Devices, T.Target))
      continue;
    const Expr *Receiver = T.Call->getImplicitObjectArgument();
    // The transfer this one undoes: just before it, or on the previous
    // iteration (state parked on the host).
    const Expr *Undone = nullptr;
    DeviceSet Intermediate;
    if (const Transfer *Previous =
            T.IsSync ? nullptr : roundTripFrom(T.Source, T.Target, *Loop, Facts)) {
      Undone = Previous->Call;
      Intermediate = T.Source.Devices;
    } else if (const Transfer *Down = parkedOnTheHost(T, *Loop, Facts)) {
      Undone = Down->Call;
      Intermediate = Down->Target;
    }
    if (Undone) {
      RoundTripFinding Finding;
      Finding.Call = T.Call;
      Finding.Receiver = Receiver;
      Finding.Loop = Loop;
      Finding.Target = T.Target;
      Finding.FirstTransfer = Undone;
      Finding.Intermediate = Intermediate;
      Handler.onRoundTripInLoop(Finding);
    } else if (isInvariant(T, *Loop, Body)) {
      Handler.onInvariantTransferInLoop({T.Call, Receiver, Loop, T.Target});
    } else if (const Expr *Whole = wholeOf(Receiver, Body.model());
               const Stmt *Outer = Whole ? outerLoopOfWhole(T, *Loop, *Whole, Body) : nullptr) {
      LoopTransferFinding Finding{T.Call, Receiver, Outer, T.Target};
      Finding.Whole = Whole;
      Handler.onInvariantTransferInLoop(Finding);
    } else {
      diagnoseSync(*T.Call, T.Source.Devices, T.Target, T.NonBlocking, *Loop, Facts, Handler);
    }
  }
}

} // namespace placelint::analysis
