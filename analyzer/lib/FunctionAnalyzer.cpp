// The fixed-point driver of the device analysis, its handling of variables,
// and the loop rules (transfer-in-loop).
#include "FunctionAnalyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

namespace placelint::analysis::detail {

// ---------------------------------------------------------------------------
// Fixed point

std::optional<ValueFact> FunctionAnalyzer::run(FactObserver Observer) {
  CFG::BuildOptions Options;
  Options.AddInitializers = true;
  Options.AddCXXDefaultInitExprInCtors = true;
  // Variables leave the state at the end of their scope, which keeps the
  // state as small as the set of variables in scope.
  Options.AddLifetime = true;
  Options.setAllAlwaysAdd();
  Graph = CFG::buildCFG(&Function, Function.getBody(), &Context, Options);
  if (!Graph)
    return std::nullopt;

  PostOrderCFGView Order(Graph.get());
  BlockExit.assign(Graph->getNumBlockIDs(), std::nullopt);
  ForwardDataflowWorklist Worklist(*Graph, &Order);
  Worklist.enqueueBlock(&Graph->getEntry());
  // The lattice has finite height; the cap only guards against a bug.
  unsigned Budget = 64 * Graph->getNumBlockIDs() + 64;
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (--Budget == 0)
      return std::nullopt;
    Current = entryState(*Block);
    visitBlock(*Block);
    std::optional<State> &Exit = BlockExit[Block->getBlockID()];
    if (Exit && *Exit == Current)
      continue;
    Exit = std::move(Current);
    Worklist.enqueueSuccessors(Block);
  }

  // One more pass over the stable states, reporting.
  Reporting = true;
  Returned = ValueFact();
  for (const CFGBlock *Block : Order) {
    if (!BlockExit[Block->getBlockID()] && Block != &Graph->getEntry())
      continue; // unreachable
    Current = entryState(*Block);
    visitBlock(*Block);
  }
  if (Observer)
    for (const auto &[E, Fact] : ExprFacts)
      if (Model.classify(E->getType()) != ValueKind::Other)
        Observer(*E, Fact);
  return Returned;
}

ValueFact FunctionAnalyzer::initialFact(const ValueDecl &Decl) const {
  const auto *Var = dyn_cast<VarDecl>(&Decl);
  if (Var && Var->isLocalVarDecl())
    return ValueFact(); // not declared yet on this path
  ValueKind Kind = Model.classify(Decl.getType());
  if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)
    return ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(&Decl)));
  return ValueFact::unknown();
}

State FunctionAnalyzer::initialState() const {
  State Initial;
  if (Arguments.empty())
    return Initial;
  for (unsigned I = 0; I < Function.getNumParams(); ++I) {
    const ParmVarDecl *Param = Function.getParamDecl(I);
    if (Model.classify(Param->getType()) != ValueKind::Other)
      Initial[Param] = I < Arguments.size() ? Arguments[I] : ValueFact::unknown();
  }
  return Initial;
}

State FunctionAnalyzer::entryState(const CFGBlock &Block) const {
  if (&Block == &Graph->getEntry())
    return initialState();
  std::optional<State> Joined;
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !BlockExit[P->getBlockID()])
      continue;
    const State &Incoming = *BlockExit[P->getBlockID()];
    if (!Joined) {
      Joined = Incoming;
      continue;
    }
    for (auto &[Decl, Fact] : *Joined) {
      auto It = Incoming.find(Decl);
      Fact = Fact.join(It != Incoming.end() ? It->second : initialFact(*Decl));
    }
    for (const auto &[Decl, Fact] : Incoming)
      if (!Joined->count(Decl))
        (*Joined)[Decl] = initialFact(*Decl).join(Fact);
  }
  return Joined ? std::move(*Joined) : State();
}

void FunctionAnalyzer::visitBlock(const CFGBlock &Block) {
  for (const CFGElement &Element : Block)
    visitElement(Element);
}

void FunctionAnalyzer::visitElement(const CFGElement &Element) {
  if (std::optional<CFGLifetimeEnds> End = Element.getAs<CFGLifetimeEnds>()) {
    Current.erase(End->getVarDecl());
    return;
  }
  if (std::optional<CFGInitializer> Init = Element.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *Initializer = Init->getInitializer();
    if (Initializer->isMemberInitializer() && Initializer->getInit())
      assign(*Initializer->getMember(), factOf(Initializer->getInit()),
             Initializer->getInit(), Initializer->getSourceLocation());
    return;
  }
  std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>();
  if (!Statement)
    return;
  const Stmt *S = Statement->getStmt();
  if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : Decls->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (const Expr *Init = Var->getInit();
            Init && Model.classify(Var->getType()) != ValueKind::Other)
          assign(*Var, factOf(Init), Init, Var->getLocation());
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *Value = Return->getRetValue())
      Returned = Returned.join(factOf(Value));
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    // Only calls matter among values the model does not track (Module::to
    // returns void, item() a Scalar).
    if (Model.classify(E->getType()) == ValueKind::Other && !isa<CallExpr>(E))
      return;
    ExprFacts[E] = evaluate(E);
  }
}

// ---------------------------------------------------------------------------
// Variables

ValueFact FunctionAnalyzer::read(const ValueDecl &Decl, const Expr &Ref) {
  if (Body.isEscaped(Decl))
    return ValueFact::unknown();
  auto It = Current.find(&Decl);
  if (It != Current.end())
    return It->second;
  ValueKind Kind = Model.classify(Decl.getType());
  const auto *Var = dyn_cast<VarDecl>(&Decl);
  // A global constant: `const Device kGpu("cuda:1");`, `constexpr auto k = kCUDA;`.
  if (Var && !Var->hasLocalStorage() && Var->getType().isConstQualified() &&
      Var->getInit() && (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)) {
    if (Kind == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(&Ref);
    ValueFact Fact = factOf(Var->getInit());
    if (Fact.Devices.single())
      return Fact;
  }
  if (Var && Var->isLocalVarDecl() && Var->isStaticLocal())
    return Kind == ValueKind::Device || Kind == ValueKind::DeviceType
               ? ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(&Decl)))
               : ValueFact::unknown();
  ValueFact Initial = initialFact(Decl);
  return Initial.Devices.isBottom() ? ValueFact::unknown() : Initial;
}

void FunctionAnalyzer::assign(const ValueDecl &Decl, ValueFact Fact, const Expr *Source,
                              SourceLocation At) {
  ValueKind Kind = Model.classify(Decl.getType());
  if (Kind == ValueKind::Other)
    return;
  // A Device variable holding one of several devices, or an unknown one, is
  // "the device in 'dev'": tensors moved to it agree with each other.
  if ((Kind == ValueKind::Device || Kind == ValueKind::DeviceType) &&
      !Fact.Devices.single())
    Fact.Devices = DeviceSet::of(AbstractDevice::symbolic(&Decl));
  const Expr *Stripped = stripCopies(Source);
  if (Stripped && trackedDecl(Stripped))
    Fact.setOrigin({OriginKind::Assigned, At});
  Current[&Decl] = Fact;
}

// ---------------------------------------------------------------------------
// Loops

void FunctionAnalyzer::checkTransferInLoop(const CXXMemberCallExpr &Call,
                                           const ValueFact &Source,
                                           const DeviceSet &Target) {
  if (!Reported.insert(&Call).second)
    return;
  const Stmt *Loop = Body.loopAround(Call);
  if (!Loop || !Target.isKnown() || Source.Devices.isBottom())
    return;
  const Expr *Receiver = Call.getImplicitObjectArgument();
  std::optional<AbstractDevice> From = Source.Devices.single();
  std::optional<AbstractDevice> To = Target.single();
  const CXXMethodDecl *Method = Call.getMethodDecl();
  bool IsSync = Method && Method->getIdentifier() && Method->getName() == "item";

  // Round trip: moved straight back to where the previous transfer, in this
  // loop, took it from.
  if (!IsSync && Source.TransferCall && Body.loopAround(*Source.TransferCall) == Loop &&
      To && From) {
    // Where it came from may be unknown (a loaded batch): moving it to a
    // device and straight to the host is a round trip wherever it was.
    std::optional<AbstractDevice> Before = Source.TransferSource.single();
    bool BackToSource = Source.TransferSource.isUnknown() ||
                        (Before && compare(*Before, *To) == Agreement::Same);
    if (BackToSource && compare(*From, *To) != Agreement::Same) {
      RoundTripFinding Finding;
      Finding.Call = &Call;
      Finding.Receiver = Receiver;
      Finding.Loop = Loop;
      Finding.Target = Target;
      Finding.FirstTransfer = Source.TransferCall;
      Finding.Intermediate = Source.Devices;
      Handler->onRoundTripInLoop(Finding);
      return;
    }
  }
  // Invariant: the same tensor, unchanged, to the same place on every
  // iteration (and not already there). From an unknown device the transfer
  // may be no copy at all: not reported.
  bool AlreadyThere = !Source.Devices.isKnown() ||
                      (From && To && compare(*From, *To) == Agreement::Same);
  const auto *Ref = dyn_cast<DeclRefExpr>(stripCopies(Receiver));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!IsSync && !AlreadyThere && Var && !Body.isDeclaredIn(*Var, *Loop) &&
      !Body.isChangedIn(*Var, *Loop) &&
      llvm::all_of(Call.arguments(),
                   [&](const Expr *Arg) { return Body.isInvariantIn(*Arg, *Loop); })) {
    LoopTransferFinding Finding{&Call, Receiver, Loop, Target};
    Handler->onInvariantTransferInLoop(Finding);
    return;
  }
  // Sync: a copy from a device to the host.
  bool ToHost = To && To->isCpu();
  bool OnDevice = Source.Devices.allConcrete() &&
                  llvm::none_of(Source.Devices.devices(),
                                [](const AbstractDevice &D) { return D.isCpu(); });
  if (ToHost && OnDevice) {
    SyncFinding Finding;
    Finding.Call = &Call;
    Finding.Receiver = Receiver;
    Finding.Loop = Loop;
    Finding.Target = Target;
    Finding.Source = Source.Devices;
    Handler->onSyncInLoop(Finding);
  }
}

} // namespace placelint::analysis::detail
