// The fixed-point driver, the CFG elements that are not expressions
// (declarations, initializers, returns, ends of lifetimes) and variables.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

namespace placelint::analysis {

using namespace clang;

bool DeviceFlow::run() {
  CFG::BuildOptions Options;
  Options.AddInitializers = true;
  Options.AddCXXDefaultInitExprInCtors = true;
  // Variables leave the state at the end of their scope, which keeps the
  // state as small as the set of variables in scope.
  Options.AddLifetime = true;
  Options.setAllAlwaysAdd();
  Graph = CFG::buildCFG(&Function, Function.getBody(), &Context, Options);
  if (!Graph)
    return false;

  PostOrderCFGView Order(Graph.get());
  BlockExit.assign(Graph->getNumBlockIDs(), std::nullopt);
  ForwardDataflowWorklist Worklist(*Graph, &Order);
  Worklist.enqueueBlock(&Graph->getEntry());
  // The lattice has finite height; the cap only guards against a bug.
  unsigned Budget = 64 * Graph->getNumBlockIDs() + 64;
  // A block is visited again whenever its entry state may have changed, so
  // the last visit of each block, whose records FunctionFacts keeps, saw
  // its converged entry state.
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (--Budget == 0)
      return false;
    Current = entryState(*Block);
    CurrentBlock = Block;
    for (const CFGElement &Element : *Block)
      visitElement(Element);
    std::optional<FlowState> &Exit = BlockExit[Block->getBlockID()];
    if (Exit && *Exit == Current)
      continue;
    Exit = std::move(Current);
    Worklist.enqueueSuccessors(Block);
  }
  CurrentBlock = nullptr;
  resolveCudaGuards();
  if (const std::optional<FlowState> &AtExit = BlockExit[Graph->getExit().getBlockID()]) {
    llvm::DenseMap<const ValueDecl *, ValueFact> Fields;
    for (const auto &[Decl, Fact] : *AtExit)
      if (isa<FieldDecl>(Decl))
        Fields[Decl] = Fact;
    Facts.setFieldsAtExit(std::move(Fields));
  }
  return true;
}

ValueFact DeviceFlow::initialFact(const ValueDecl &Decl) const {
  const auto *Var = dyn_cast<VarDecl>(&Decl);
  if (Var && Var->isLocalVarDecl())
    return ValueFact(); // not declared yet on this path
  ValueKind Kind = Model.classify(Decl.getType());
  if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)
    return ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(&Decl)));
  return ValueFact::unknown();
}

FlowState DeviceFlow::initialState() const {
  FlowState Initial;
  if (Entry) {
    for (const auto &[Decl, Fact] : Entry->Known)
      Initial[Decl] = Fact;
    if (Entry->InputDevice)
      for (const ParmVarDecl *Param : Function.parameters())
        if (Model.isTensor(Param->getType()))
          Initial[Param] = ValueFact::on(DeviceSet::of(*Entry->InputDevice));
  }
  if (Arguments.empty())
    return Initial;
  for (unsigned I = 0; I < Function.getNumParams(); ++I) {
    const ParmVarDecl *Param = Function.getParamDecl(I);
    if (Model.classify(Param->getType()) != ValueKind::Other)
      Initial[Param] = I < Arguments.size() ? Arguments[I] : ValueFact::unknown();
  }
  return Initial;
}

FlowState DeviceFlow::entryState(const CFGBlock &Block) const {
  if (&Block == &Graph->getEntry())
    return initialState();
  std::optional<FlowState> Joined;
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !BlockExit[P->getBlockID()])
      continue;
    const FlowState &Incoming = *BlockExit[P->getBlockID()];
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
  return Joined ? std::move(*Joined) : FlowState();
}

void DeviceFlow::visitElement(const CFGElement &Element) {
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
    for (const Decl *D : Decls->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      const Expr *Init = Var ? Var->getInit() : nullptr;
      if (!Init || Model.classify(Var->getType()) == ValueKind::Other)
        continue;
      // `for (auto &t : list)`: each t is an element of the list.
      const Expr *Range = Facts.body().rangeOf(*Var);
      if (Range && Model.classify(Range->getType()) == ValueKind::TensorList)
        assign(*Var, factOf(Range), Range, Var->getLocation());
      else
        assign(*Var, factOf(Init), Init, Var->getLocation());
    }
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *Value = Return->getRetValue())
      Facts.addReturned(factOf(Value));
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    EntryFacts &Captured = Facts.capturesOf(*Lambda);
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable())
        if (const ValueDecl *Var = Capture.getCapturedVar();
            Model.classify(Var->getType()) != ValueKind::Other)
          if (auto It = Current.find(Var); It != Current.end())
            Captured.Known[Var] = It->second;
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    // Only calls and optimizers (given the tensors they update) matter
    // among values the model does not track (Module::to returns void,
    // item() a Scalar).
    if (Model.classify(E->getType()) == ValueKind::Other && !isa<CallExpr>(E) &&
        !(isa<CXXConstructExpr>(E) && Model.isOptimizer(E->getType())))
      return;
    Facts.mutableExpressions()[E] = evaluate(E);
  }
}

ValueFact DeviceFlow::read(const ValueDecl &Decl, const Expr &Ref) {
  if (Facts.body().isEscaped(Decl))
    return ValueFact::unknown();
  auto It = Current.find(&Decl);
  if (It != Current.end())
    return It->second;
  ValueKind Kind = Model.classify(Decl.getType());
  bool IsDevice = Kind == ValueKind::Device || Kind == ValueKind::DeviceType;
  const auto *Var = dyn_cast<VarDecl>(&Decl);
  // A global constant: `const Device kGpu("cuda:1");`, `constexpr auto k = kCUDA;`.
  if (Var && !Var->hasLocalStorage() && Var->getType().isConstQualified() &&
      Var->getInit() && IsDevice) {
    if (Kind == ValueKind::DeviceType)
      return evaluateDeviceTypeConstant(&Ref);
    ValueFact Fact = factOf(Var->getInit());
    if (Fact.Devices.single())
      return Fact;
  }
  if (Var && Var->isLocalVarDecl() && Var->isStaticLocal())
    return IsDevice ? ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(&Decl)))
                    : ValueFact::unknown();
  ValueFact Initial = initialFact(Decl);
  return Initial.Devices.isBottom() ? ValueFact::unknown() : Initial;
}

void DeviceFlow::assign(const ValueDecl &Decl, ValueFact Fact, const Expr *Source,
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

void DeviceFlow::forgetReferenceArguments(const CallExpr &Call, const FunctionDecl &Callee) {
  // An operator method's call lists the object first.
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  unsigned Count = std::min(Call.getNumArgs() - std::min(Call.getNumArgs(), Offset),
                            Callee.getNumParams());
  for (unsigned I = 0; I < Count; ++I) {
    QualType Param = Callee.getParamDecl(I)->getType();
    if (!Param->isReferenceType() || Param.getNonReferenceType().isConstQualified())
      continue;
    if (const ValueDecl *Var = trackedDecl(stripCopies(Call.getArg(I + Offset))))
      if (Model.classify(Var->getType()) != ValueKind::Other)
        Current[Var] = ValueFact::unknown();
  }
}

void DeviceFlow::forgetFields() {
  llvm::SmallVector<const ValueDecl *, 4> Fields;
  for (const auto &[Decl, Fact] : Current)
    if (isa<FieldDecl>(Decl))
      Fields.push_back(Decl);
  for (const ValueDecl *Field : Fields)
    Current.erase(Field);
}

} // namespace placelint::analysis
