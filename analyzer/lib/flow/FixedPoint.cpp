// The fixed-point driver, the CFG elements that are not expressions
// (declarations, initializers, returns, ends of lifetimes) and the state:
// what each tracked place holds.
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
    Current = *AtExit;
    AbstractValue Object = objectOf(*AtExit);
    // A lambda's captures are its object's fields: a variable it captured
    // by reference and changed is the part under its capture's field, which
    // the call writes back (summaryCall). One it left as it was given is not
    // handed back: the caller's own facts of it (its maker) stay.
    if (const auto *Operator = dyn_cast<CXXMethodDecl>(&Function);
        Operator && Operator->getParent()->isLambda()) {
      llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
      FieldDecl *ThisField = nullptr;
      Operator->getParent()->getCaptureFields(Fields, ThisField);
      FlowState Initial = initialState();
      auto Changed = [&](const ValueDecl *Var, const FlowState &From, const FlowState &To) {
        return llvm::any_of(From, [&](const auto &Entry) {
          return Entry.first.root() == Var && lookup(To, Entry.first) != Entry.second;
        });
      };
      llvm::SmallVector<AbstractValue::Part, 0> Parts(Object.Parts);
      for (const LambdaCapture &Capture : Operator->getParent()->captures()) {
        if (!Capture.capturesVariable() || Capture.getCaptureKind() != LCK_ByRef)
          continue;
        const ValueDecl *Var = Capture.getCapturedVar();
        const FieldDecl *Field = Fields.lookup(Var);
        if (!Field || Model.classify(Var->getType()) == ValueKind::Other ||
            (!Changed(Var, *AtExit, Initial) && !Changed(Var, Initial, *AtExit)))
          continue;
        AccessPath Under = *AccessPath().child(AccessStep::field(Field));
        for (const auto &[Path, Fact] : *AtExit)
          if (Path.root() == Var)
            if (std::optional<AccessPath> Relative = Under.append(Path))
              Parts.push_back({*Relative, Fact});
      }
      Object = AbstractValue::withParts(Object.Whole, std::move(Parts));
    }
    llvm::SmallVector<std::optional<AbstractValue>, 2> ByReference;
    for (const ParmVarDecl *Param : Function.parameters()) {
      QualType Type = Param->getType();
      bool Out = Type->isReferenceType() && !Type.getNonReferenceType().isConstQualified() &&
                 Model.classify(Type) != ValueKind::Other;
      ByReference.push_back(Out ? std::optional(read(AccessPath(Param))) : std::nullopt);
    }
    Facts.setExit(std::move(Object), std::move(ByReference));
  }
  Facts.keepGraph(std::move(Graph));
  recordHostReads();
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
  auto Put = [&](const AccessPath &Root, const AbstractValue &Value) {
    Initial[Root] = Value.Whole;
    for (const auto &[Relative, Fact] : Value.Parts)
      if (std::optional<AccessPath> Path = Root.append(Relative))
        Initial[*Path] = Fact;
  };
  if (Entry) {
    for (const auto &[Path, Fact] : Entry->Known)
      Initial[Path] = Fact;
    if (Entry->InputDevice)
      for (const ParmVarDecl *Param : Function.parameters())
        if (Model.isTensor(Param->getType()))
          Initial[AccessPath(Param)] = ValueFact::on(DeviceSet::of(*Entry->InputDevice));
  }
  if (Inputs.Captures)
    for (const auto &[Path, Fact] : Inputs.Captures->Known)
      Initial[Path] = Fact;
  // A method's object: its parts by field are the fields.
  if (Inputs.Object)
    for (const auto &[Relative, Fact] : Inputs.Object->Parts) {
      const FieldDecl *Field = Relative.steps().front().asField();
      if (!Field)
        continue;
      AccessPath Path = AccessPath(Field);
      for (AccessStep Step : Relative.steps().drop_front())
        Path = *Path.child(Step);
      Initial[Path] = Fact;
    }
  if (Inputs.Arguments.empty())
    return Initial;
  for (unsigned I = 0; I < Function.getNumParams(); ++I) {
    const ParmVarDecl *Param = Function.getParamDecl(I);
    if (Model.classify(Param->getType()) != ValueKind::Other)
      Put(AccessPath(Param), I < Inputs.Arguments.size() ? Inputs.Arguments[I]
                                                         : AbstractValue(ValueFact::unknown()));
  }
  return Initial;
}

ValueFact DeviceFlow::lookup(const FlowState &State, const AccessPath &Path) const {
  for (AccessPath At = Path;; At = At.parent()) {
    if (auto It = State.find(At); It != State.end())
      return It->second;
    if (At.depth() == 0)
      return initialFact(*Path.root());
  }
}

FlowState DeviceFlow::entryState(const CFGBlock &Block) const {
  if (&Block == &Graph->getEntry())
    return initialState();
  std::optional<FlowState> Joined;
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !BlockExit[P->getBlockID()])
      continue;
    FlowState Incoming = *BlockExit[P->getBlockID()];
    // Leaving a loop by its condition's false edge.
    if (P->getTerminatorStmt() && P->succ_size() == 2 && *(P->succ_begin() + 1) == &Block)
      takeLoopWrites(*P, Incoming);
    refineByDeviceTest(*P, Block, Incoming);
    if (!Joined) {
      Joined = std::move(Incoming);
      continue;
    }
    FlowState Merged;
    for (const auto &[Path, Fact] : *Joined)
      Merged[Path] = Fact.join(lookup(Incoming, Path));
    for (const auto &[Path, Fact] : Incoming)
      if (!Merged.count(Path))
        Merged[Path] = lookup(*Joined, Path).join(Fact);
    Joined = std::move(Merged);
  }
  return Joined ? std::move(*Joined) : FlowState();
}

void DeviceFlow::takeLoopWrites(const CFGBlock &Condition, FlowState &Exit) const {
  const Stmt *Loop = Condition.getTerminatorStmt();
  llvm::ArrayRef<const ValueDecl *> Written = Facts.body().elementsWrittenBy(*Loop);
  if (Written.empty())
    return;
  // The state the back edges bring: after the last iteration.
  std::optional<FlowState> Last;
  for (const CFGBlock::AdjacentBlock &Pred : Condition.preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || P->getLoopTarget() != Loop || !BlockExit[P->getBlockID()])
      continue;
    Last = BlockExit[P->getBlockID()];
  }
  if (!Last)
    return;
  for (const ValueDecl *Container : Written) {
    eraseRoot(Exit, Container);
    for (const auto &[Path, Fact] : *Last)
      if (Path.root() == Container)
        Exit[Path] = Fact;
  }
}

void DeviceFlow::visitElement(const CFGElement &Element) {
  if (std::optional<CFGLifetimeEnds> End = Element.getAs<CFGLifetimeEnds>()) {
    forget(AccessPath(End->getVarDecl()));
    Current.erase(AccessPath(End->getVarDecl()));
    return;
  }
  if (std::optional<CFGInitializer> Init = Element.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *Initializer = Init->getInitializer();
    if (Initializer->isMemberInitializer() && Initializer->getInit() &&
        Model.classify(Initializer->getMember()->getType()) != ValueKind::Other)
      write({AccessPath(Initializer->getMember())}, valueOf(Initializer->getInit()),
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
        declare(*Var);
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *Value = Return->getRetValue())
      Facts.addReturned(valueOf(Value));
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    EntryFacts Captured;
    for (const LambdaCapture &Capture : Lambda->captures()) {
      // `this`: the fields of the object, as they are here.
      if (Capture.capturesThis())
        for (const auto &[Path, Fact] : Current)
          if (isa<FieldDecl>(Path.root()))
            Captured.Known[Path] = Fact;
      if (!Capture.capturesVariable())
        continue;
      const ValueDecl *Var = Capture.getCapturedVar();
      if (Model.classify(Var->getType()) == ValueKind::Other)
        continue;
      // A reference holds nothing of its own: the lambda's body sees, under
      // the reference's name, what the place it names holds.
      const auto *Reference = dyn_cast<VarDecl>(Var);
      const Expr *Bound = Reference ? Facts.body().boundPlace(*Reference) : nullptr;
      if (std::optional<Place> Where = Bound ? placeOf(Bound) : std::nullopt) {
        AbstractValue Value = read(Where->Path);
        Captured.Known[AccessPath(Var)] = Value.Whole;
        for (const auto &[Relative, Fact] : Value.Parts)
          if (std::optional<AccessPath> Part = AccessPath(Var).append(Relative))
            Captured.Known[*Part] = Fact;
        continue;
      }
      for (const auto &[Path, Fact] : Current)
        if (Path.root() == Var)
          Captured.Known[Path] = Fact;
    }
    Summaries.noteCaptures(*Lambda->getLambdaClass(), Captured);
    // The lambda's own analysis, which runs while this one is kept, reads a
    // captured tensor's provenance (the factory, the move that made it)
    // here, where it was made. The summaries' copy above has none: they
    // outlive this analysis.
    for (auto &[Path, Fact] : Captured.Known)
      if (Fact.MadeBy && !Fact.MadeIn && Model.isTensor(Path.root()->getType()))
        Fact.MadeIn = &Facts;
    Facts.capturesOf(*Lambda) = std::move(Captured);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    // Only calls and optimizers (given the tensors they update) matter
    // among values the model does not track (Module::to returns void,
    // item() a Scalar).
    if (Model.classify(E->getType()) == ValueKind::Other && !isa<CallExpr>(E) &&
        !(isa<CXXConstructExpr>(E) && Model.optimizerArguments(*E)))
      return;
    Facts.mutableParts().erase(E);
    Facts.mutableExpressions()[E] = evaluate(E);
  }
}

void DeviceFlow::declare(const VarDecl &Var) {
  const Expr *Init = Var.getInit();
  if (Model.classify(Var.getType()) == ValueKind::Other)
    return;
  // A reference bound to a place names it (placeOf): binding writes nothing.
  if (const Expr *Bound = Facts.body().boundPlace(Var); Bound && placeOf(Bound))
    return;
  // `for (auto &t : list)`: each t is an element of the list; a data
  // loader's batches are loaded on the host.
  if (const Expr *Range = Facts.body().rangeOf(Var)) {
    if (Model.isDataLoader(Range->getType())) {
      ValueFact Loaded = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
      Loaded.From = {OriginKind::Created, Var.getLocation()};
      write({AccessPath(&Var)}, Loaded, nullptr, Var.getLocation());
      return;
    }
    if (Model.classify(Range->getType()) == ValueKind::TensorList) {
      write({AccessPath(&Var)}, valueOf(Range), Range, Var.getLocation());
      return;
    }
  }
  if (Init)
    write({AccessPath(&Var)}, valueOf(Init), Init, Var.getLocation());
}

ValueFact DeviceFlow::defaultOf(const ValueDecl &Root) const {
  ValueKind Kind = Model.classify(Root.getType());
  bool IsDevice = Kind == ValueKind::Device || Kind == ValueKind::DeviceType;
  const auto *Var = dyn_cast<VarDecl>(&Root);
  // A global constant: `const Device kGpu("cuda:1");`.
  if (Var && !Var->hasLocalStorage() && Var->getType().isConstQualified() &&
      Var->getInit() && Kind == ValueKind::Device) {
    ValueFact Constant = const_cast<DeviceFlow *>(this)->factOf(Var->getInit());
    if (Constant.Devices.single())
      return Constant;
  }
  if (Var && Var->isLocalVarDecl() && Var->isStaticLocal())
    return IsDevice ? ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(&Root)))
                    : ValueFact::unknown();
  ValueFact Initial = initialFact(Root);
  return Initial.Devices.isBottom() ? ValueFact::unknown() : Initial;
}

AbstractValue DeviceFlow::read(const AccessPath &Path) const {
  const ValueDecl &Root = *Path.root();
  if (Facts.body().isEscaped(Root))
    return ValueFact::unknown();
  ValueFact Whole;
  bool Listed = false;
  for (AccessPath At = Path;; At = At.parent()) {
    if (auto It = Current.find(At); It != Current.end()) {
      Whole = It->second;
      Listed = At == Path;
      break;
    }
    if (At.depth() == 0) {
      Whole = defaultOf(Root);
      break;
    }
  }
  // A Device field of a value nothing is known of (`config->device`) holds
  // "the device in 'device'", as a Device variable would.
  const FieldDecl *Leaf = Path.depth() ? Path.steps().back().asField() : nullptr;
  ValueKind LeafKind = Leaf ? Model.classify(Leaf->getType()) : ValueKind::Other;
  if (!Listed && Whole.Devices.isUnknown() &&
      (LeafKind == ValueKind::Device || LeafKind == ValueKind::DeviceType))
    Whole = ValueFact::on(DeviceSet::of(AbstractDevice::symbolic(Leaf)));
  llvm::SmallVector<AbstractValue::Part, 0> Parts;
  for (const auto &[At, Fact] : Current)
    if (At != Path && Path.covers(At))
      Parts.push_back({Path.relativeOf(At), Fact});
  return AbstractValue::withParts(std::move(Whole), std::move(Parts));
}

AbstractValue DeviceFlow::objectOf(const FlowState &State) const {
  llvm::SmallVector<AbstractValue::Part, 0> Fields;
  for (const auto &[Path, Fact] : State)
    if (const auto *Field = dyn_cast<FieldDecl>(Path.root()))
      if (std::optional<AccessPath> Relative =
              AccessPath().child(AccessStep::field(Field))->append(Path))
        Fields.push_back({*Relative, Fact});
  return AbstractValue::withParts(ValueFact::unknown(), std::move(Fields));
}

void DeviceFlow::forget(const AccessPath &Path) {
  llvm::SmallVector<AccessPath, 4> Below;
  for (const auto &[At, Fact] : Current)
    if (At != Path && Path.covers(At))
      Below.push_back(At);
  for (const AccessPath &At : Below)
    Current.erase(At);
}

void DeviceFlow::write(const Place &Where, const AbstractValue &Value, const Expr *Source,
                       SourceLocation At) {
  const AccessPath &Path = Where.Path;
  AbstractValue New = Value;
  // A Device variable (or field) holding one of several devices, or an
  // unknown one, is "the device in 'dev'": tensors moved to it agree with
  // each other.
  const ValueDecl *Named = Path.root();
  if (!Path.steps().empty() && Path.steps().back().asField())
    Named = Path.steps().back().asField();
  ValueKind Kind = Model.classify(Named->getType());
  if ((Kind == ValueKind::Device || Kind == ValueKind::DeviceType) &&
      !New.Whole.Devices.single())
    New.Whole.Devices = DeviceSet::of(AbstractDevice::symbolic(Named));
  const Expr *Stripped = stripCopies(Source);
  if (Stripped && placeOf(Stripped))
    New.Whole.setOrigin({OriginKind::Assigned, At});
  if (Where.OneElement) {
    // One element of a container: the others keep theirs.
    AbstractValue Joined = read(Path).join(New);
    New = std::move(Joined);
  }
  forget(Path);
  Current[Path] = New.Whole;
  for (const auto &[Relative, Fact] : New.Parts)
    if (std::optional<AccessPath> Part = Path.append(Relative))
      Current[*Part] = Fact;
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
    if (std::optional<Place> Where = placeOf(stripCopies(Call.getArg(I + Offset))))
      write({Where->Path}, ValueFact::unknown(), nullptr, Call.getExprLoc());
  }
}

void DeviceFlow::forgetFields() {
  llvm::SmallVector<AccessPath, 4> Fields;
  for (const auto &[Path, Fact] : Current)
    if (isa<FieldDecl>(Path.root()))
      Fields.push_back(Path);
  for (const AccessPath &Field : Fields)
    Current.erase(Field);
}

} // namespace placelint::analysis
