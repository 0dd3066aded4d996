#include "flow/FunctionSummaries.h"

#include "BodyFacts.h"
#include "flow/DeviceFlow.h"
#include "rules/Rules.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace placelint::analysis {

using namespace clang;

SummaryProvider::~SummaryProvider() = default;

bool isAnalyzable(const FunctionDecl &Function, const ASTContext &Context) {
  return Function.hasBody() && Function.doesThisDeclarationHaveABody() &&
         !Function.isDependentContext() && !Function.isInvalidDecl() &&
         !Context.getDiagnostics().hasUncompilableErrorOccurred();
}

bool hasUserBody(const FunctionDecl *Definition, const ASTContext &Context) {
  return Definition && Definition->hasBody() && !Definition->isDependentContext() &&
         !Context.getSourceManager().isInSystemHeader(Definition->getLocation());
}

namespace {

void describeForKey(llvm::raw_ostream &Stream, const ValueFact &Fact) {
  Stream << '|' << static_cast<int>(Fact.Dim) << Fact.OptionsWithoutDevice << Fact.AfterMismatch
         << static_cast<const void *>(Fact.Pending);
  // A value another callee made keeps its maker through this one (a
  // caller's own maker does not: exportMaker).
  if (Fact.MadeIn)
    Stream << '@' << static_cast<const void *>(Fact.MadeBy);
  Stream << (Fact.Devices.isBottom() ? "b" : Fact.Devices.isUnknown() ? "u" : "s");
  for (const AbstractDevice &D : Fact.Devices.devices())
    Stream << ',' << static_cast<int>(D.form()) << static_cast<int>(D.type()) << ':'
           << D.index() << ':' << static_cast<const void *>(D.symbol());
}

void describeForKey(llvm::raw_ostream &Stream, const AbstractValue &Value) {
  describeForKey(Stream, Value.Whole);
  for (const auto &[Path, Fact] : Value.Parts) {
    Stream << '{';
    for (AccessStep Step : Path.steps())
      Stream << Step.bits() << '.';
    describeForKey(Stream, Fact);
    Stream << '}';
  }
}

// The cache key: the callee and what its inputs are (devices and ranks).
std::string summaryKey(const FunctionDecl &Callee, const CallInputs &Inputs) {
  std::string Key;
  llvm::raw_string_ostream Stream(Key);
  Stream << static_cast<const void *>(&Callee);
  for (const AbstractValue &Arg : Inputs.Arguments)
    describeForKey(Stream, Arg);
  for (const std::optional<std::int64_t> &Integer : Inputs.Integers)
    Stream << '#' << (Integer ? std::to_string(*Integer) : "?");
  if (Inputs.Object) {
    Stream << "#this";
    describeForKey(Stream, *Inputs.Object);
  }
  if (Inputs.Captures) {
    // Known is a DenseMap, whose order is its buckets': two maps of the same
    // captures may list them differently. Sorted, equal captures give one key.
    std::vector<std::string> Captured;
    for (const auto &[Path, Fact] : Inputs.Captures->Known) {
      llvm::raw_string_ostream Entry(Captured.emplace_back());
      Entry << "#" << static_cast<const void *>(Path.root());
      for (AccessStep Step : Path.steps())
        Entry << Step.bits() << '.';
      describeForKey(Entry, Fact);
    }
    llvm::sort(Captured);
    for (const std::string &Entry : Captured)
      Stream << Entry;
  }
  return Key;
}

bool isRegistration(const Stmt &S, const ApiModel &Model) {
  const auto *Call = dyn_cast<CallExpr>(&S);
  if (!Call)
    return false;
  CallKind Kind = Model.classifyCall(*Call).Kind;
  return Kind == CallKind::RegisterParameter || Kind == CallKind::RegisterBuffer ||
         Kind == CallKind::RegisterModule;
}

// Whether S calls register_module / register_parameter / register_buffer.
bool callsRegistration(const Stmt *S, const ApiModel &Model) {
  return findInTree(S, [&](const Stmt &Node) { return isRegistration(Node, Model); });
}

// The code of a class's methods: constructors' member initializers and
// bodies, with the member each initializer sets (null for bodies).
void forEachMethodCode(const CXXRecordDecl &Class,
                       llvm::function_ref<void(const Stmt &, const FieldDecl *)> Visit) {
  for (const CXXMethodDecl *Method : Class.methods()) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isMemberInitializer() && Init->getInit())
          Visit(*Init->getInit(), Init->getMember());
    if (Method->hasBody())
      Visit(*Method->getBody(), nullptr);
  }
}

void collectFields(const Stmt *S, llvm::SmallPtrSetImpl<const ValueDecl *> &Fields) {
  if (!S)
    return;
  if (const ValueDecl *Field = trackedDecl(dyn_cast<Expr>(S)); Field && isa<FieldDecl>(Field))
    Fields.insert(Field);
  for (const Stmt *Child : S->children())
    collectFields(Child, Fields);
}

// The fields registered in S, which Module::to moves: given to a
// registration (`register_buffer("m", m)`) or assigned its result
// (`fc = register_module("fc", Linear(4, 2))`).
void collectRegistered(const Stmt *S, const ApiModel &Model,
                       llvm::SmallPtrSetImpl<const ValueDecl *> &Registered) {
  if (!S)
    return;
  if (isRegistration(*S, Model))
    collectFields(S, Registered);
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  if (const auto *Assign = dyn_cast<BinaryOperator>(S); Assign && Assign->isAssignmentOp())
    Lhs = Assign->getLHS(), Rhs = Assign->getRHS();
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(S);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2)
    Lhs = Assign->getArg(0), Rhs = Assign->getArg(1);
  if (Lhs && callsRegistration(Rhs, Model))
    if (const ValueDecl *Field = trackedDecl(Lhs); Field && isa<FieldDecl>(Field))
      Registered.insert(Field);
  for (const Stmt *Child : S->children())
    collectRegistered(Child, Model, Registered);
}

// A module, or a struct with tracked fields: its methods start from its fields.
bool hasTrackedFields(const CXXRecordDecl &Class, const ApiModel &Model) {
  ValueKind Kind = Model.classify(QualType(Class.getTypeForDecl(), 0));
  return Kind == ValueKind::Module || Kind == ValueKind::Aggregate;
}

bool isModuleClass(const CXXRecordDecl &Class, const ApiModel &Model) {
  return Model.classify(QualType(Class.getTypeForDecl(), 0)) == ValueKind::Module;
}

// Whether a caller gives the function a tensor still waiting for a
// non_blocking download.
bool givesPending(const CallInputs &Inputs) {
  auto Waits = [](const AbstractValue &Value) {
    return Value.Whole.Pending || llvm::any_of(Value.Parts, [](const AbstractValue::Part &Part) {
             return Part.second.Pending != nullptr;
           });
  };
  return llvm::any_of(Inputs.Arguments, Waits) || (Inputs.Object && Waits(*Inputs.Object)) ||
         (Inputs.Captures && llvm::any_of(Inputs.Captures->Known, [](const auto &Captured) {
            return Captured.second.Pending != nullptr;
          }));
}

// Fact as the function's callers see it: what made it stays known when
// Analysis made it (MadeIn names Analysis, which is then kept) or a
// function it called did; a maker from the caller's own code, given in,
// is forgotten (the summary serves every caller with these devices).
void exportMaker(ValueFact &Fact, const FunctionFacts &Analysis, bool &Referenced) {
  if (Fact.MadeIn || !Fact.MadeBy)
    return;
  if (!Analysis.factAt(Fact.MadeBy)) {
    Fact.MadeBy = nullptr;
    return;
  }
  Fact.MadeIn = &Analysis;
  Referenced = true;
}

} // namespace

// A function's analysis, kept while values it made (MadeIn) may be asked
// about.
struct FunctionSummaries::KeptAnalysis {
  KeptAnalysis(const FunctionDecl &Function, const ApiModel &Model, CallIndex &Calls)
      : Body(*Function.getBody(), Model), Facts(Function, Body, Calls) {}
  BodyFacts Body;
  FunctionFacts Facts;
};

FunctionSummaries::FunctionSummaries(ASTContext &Context, const ApiModel &Model,
                                     CallIndex &Calls)
    : Context(Context), Model(Model), Calls(Calls), Callers(Context, Model, Calls) {}

FunctionSummaries::~FunctionSummaries() = default;

std::unique_ptr<EntryFacts> FunctionSummaries::computeFields(const CXXRecordDecl &Class) {
  auto Result = std::make_unique<EntryFacts>();
  llvm::SmallPtrSet<const ValueDecl *, 8> Registered;
  forEachMethodCode(Class, [&](const Stmt &Code, const FieldDecl *Initialized) {
    collectRegistered(&Code, Model, Registered);
    if (Initialized && callsRegistration(&Code, Model)) // `fc(register_module("fc", ...))`
      Registered.insert(Initialized);
  });
  // The other fields: as the methods that set them leave them.
  unsigned Constructors = 0;
  llvm::DenseMap<const ValueDecl *, unsigned> SetByConstructors;
  for (const CXXMethodDecl *Method : Class.methods()) {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method);
    if (!isAnalyzable(*Method, Context) || Method->isConst() ||
        (Ctor && Ctor->isCopyOrMoveConstructor()) || Method->isCopyAssignmentOperator() ||
        Method->isMoveAssignmentOperator() ||
        Model.classifyMethod(*Method).Kind == CallKind::ModuleForward)
      continue;
    auto Analysis = std::make_unique<KeptAnalysis>(*Method, Model, Calls);
    if (!Analysis->Body.mentionsApi() && !(Ctor && Ctor->getNumCtorInitializers()))
      continue;
    FunctionFacts &Facts = Analysis->Facts;
    if (!DeviceFlow(Context, Model, *this, CallInputs{}, Facts).run())
      continue;
    bool Referenced = false;
    Constructors += Ctor != nullptr;
    for (const auto &[Relative, Fact] : Facts.objectAtExit().Parts) {
      const FieldDecl *Field = Relative.steps().front().asField();
      if (!Field)
        continue;
      if (Ctor && Relative.depth() == 1)
        ++SetByConstructors[Field];
      AccessPath Path(Field);
      for (AccessStep Step : Relative.steps().drop_front())
        Path = *Path.child(Step);
      ValueFact Kept = Fact;
      // The method's own Device variables and parameters mean nothing later.
      Kept.Devices = Kept.Devices.forgetIf([&](const AbstractDevice &D) {
        return !D.isConcrete() && Method->Encloses(D.symbol()->getDeclContext());
      });
      exportMaker(Kept, Facts, Referenced);
      ValueFact &Joined = Result->Known[Path];
      Joined = Joined.join(Kept);
    }
    if (Referenced)
      keep(std::move(Analysis));
  }
  // A struct's field that a constructor leaves unset may hold anything (a
  // module's fields are all set up by its constructors and setup methods).
  // A Device field that may hold several is "the device in 'device_'".
  llvm::SmallVector<AccessPath, 4> Unset;
  for (const auto &[Path, Fact] : Result->Known) {
    ValueKind Kind = Model.classify(Path.root()->getType());
    bool OneDevice = Fact.Devices.single().has_value();
    if ((!isModuleClass(Class, Model) &&
         (Constructors == 0 || SetByConstructors.lookup(Path.root()) < Constructors)) ||
        (Path.depth() == 0 && !OneDevice &&
         (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)))
      Unset.push_back(Path);
  }
  for (const AccessPath &Path : Unset)
    Result->Known.erase(Path);
  // What the module registered moves with it, unless its constructor put it
  // on a device of its own (a model split over two GPUs).
  ValueFact Moves = ValueFact::on(DeviceSet::of(AbstractDevice::ofModule(&Class)), ZeroDim::No);
  for (const ValueDecl *Field : Registered) {
    // An activation, dropout or pooling module has nothing to be on a device.
    if (Model.isStatelessModule(Field->getType())) {
      eraseRoot(Result->Known, Field);
      continue;
    }
    auto It = Result->Known.find(AccessPath(Field));
    std::optional<AbstractDevice> Placed =
        It == Result->Known.end() ? std::nullopt : It->second.Devices.single();
    if (Placed && Placed->isConcrete() && !Placed->isCpu())
      continue;
    eraseRoot(Result->Known, Field);
    Result->Known[AccessPath(Field)] = Moves;
  }
  return Result;
}

unsigned FunctionSummaries::devicesEstablishedBy(const Expr &Call) {
  // The least over the program's functions it may call (the overrides of a
  // virtual; a holder's construction, its module's constructors); a
  // library's function proves nothing.
  std::optional<unsigned> Least;
  for (const FunctionDecl *Callee : Calls.calleesOf(Call)) {
    const FunctionDecl *Definition = nullptr;
    Callee->hasBody(Definition);
    // The API's own classes (a module holder's constructor), not the
    // user's module classes that derive from them.
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Definition);
    QualType Class = Method ? QualType(Method->getParent()->getTypeForDecl(), 0) : QualType();
    bool OfApiClass = Method && Model.classify(Class) != ValueKind::Other &&
                      Model.userModule(Class) != Method->getParent();
    if (!hasUserBody(Definition, Context) || OfApiClass)
      continue;
    if (InProgress.contains(Definition))
      return 0;
    unsigned Devices = summarize(*Definition, CallInputs{}).DevicesEstablished;
    Least = Least ? std::min(*Least, Devices) : Devices;
  }
  return Least.value_or(0);
}

bool FunctionSummaries::registersState(const CXXRecordDecl &Module) {
  auto [It, Inserted] = Registers.try_emplace(&Module, false);
  if (!Inserted || !Module.hasDefinition())
    return It->second;
  forEachMethodCode(*Module.getDefinition(), [&](const Stmt &Code, const FieldDecl *) {
    It->second = It->second || callsRegistration(&Code, Model);
  });
  return It->second;
}

const EntryFacts *FunctionSummaries::classEntryOf(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (!Method || isa<CXXConstructorDecl>(Method) || Method->isStatic() ||
      !hasTrackedFields(*Method->getParent(), Model))
    return nullptr;
  const CXXRecordDecl &Class = *Method->getParent();
  auto [Slot, First] = Classes.try_emplace(&Class);
  if (First) {
    // Methods the computation summarises see no fields yet (and their
    // summaries are not kept).
    Slot->second = std::make_unique<EntryFacts>();
    ++ComputingFields;
    Slot->second = computeFields(Class);
    --ComputingFields;
  }
  std::unique_ptr<EntryFacts> &Fields = Slot->second;
  if (!isModuleClass(Class, Model) ||
      Model.classifyMethod(*Method).Kind != CallKind::ModuleForward)
    return Fields.get();
  std::unique_ptr<EntryFacts> &Forward = ForwardContexts[&Class];
  if (!Forward) {
    Forward = std::make_unique<EntryFacts>(*Fields);
    Forward->InputDevice = AbstractDevice::ofModule(&Class);
  }
  return Forward.get();
}

void FunctionSummaries::keep(std::unique_ptr<KeptAnalysis> Analysis) {
  Analysis->Facts.keepGraph(nullptr); // no rule runs on it: no sequence needed
  KeptFacts.insert(&Analysis->Facts);
  KeptAnalyses.push_back(std::move(Analysis));
}

CallSummary FunctionSummaries::summarize(const FunctionDecl &Callee, const CallInputs &Inputs) {
  if (!isAnalyzable(Callee, Context) || InProgress.contains(&Callee) ||
      InProgress.size() >= kMaxDepth)
    return CallSummary::unknown();
  // A lambda's analysis sees its captured tensors made in its maker's
  // analysis (MadeIn), which the summaries outlive: what it gives a call
  // is, as any caller's own value, without its maker (exportMaker).
  auto FromCaller = [&](const ValueFact &Fact) {
    return Fact.MadeIn && !KeptFacts.contains(Fact.MadeIn);
  };
  auto ValueFromCaller = [&](const AbstractValue &Value) {
    return FromCaller(Value.Whole) || llvm::any_of(Value.Parts, [&](const AbstractValue::Part &P) {
             return FromCaller(P.second);
           });
  };
  if (llvm::any_of(Inputs.Arguments, ValueFromCaller) ||
      (Inputs.Object && ValueFromCaller(*Inputs.Object)) ||
      (Inputs.Captures && llvm::any_of(Inputs.Captures->Known, [&](const auto &Captured) {
         return FromCaller(Captured.second);
       }))) {
    auto Forget = [&](ValueFact &Fact) {
      if (FromCaller(Fact))
        Fact.MadeBy = nullptr, Fact.MadeIn = nullptr;
    };
    auto ForgetAll = [&](AbstractValue &Value) {
      Forget(Value.Whole);
      for (auto &[Path, Fact] : Value.Parts)
        Forget(Fact);
    };
    llvm::SmallVector<AbstractValue, 4> Arguments(Inputs.Arguments);
    llvm::for_each(Arguments, ForgetAll);
    std::optional<AbstractValue> Object;
    EntryFacts Captures;
    CallInputs Own = Inputs;
    Own.Arguments = Arguments;
    if (Inputs.Object) {
      ForgetAll(Object.emplace(*Inputs.Object));
      Own.Object = &*Object;
    }
    if (Inputs.Captures) {
      Captures = *Inputs.Captures;
      for (auto &[Path, Fact] : Captures.Known)
        Forget(Fact);
      Own.Captures = &Captures;
    }
    return summarize(Callee, Own);
  }
  std::string Key = summaryKey(Callee, Inputs);
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;

  const EntryFacts *Entry = classEntryOf(Callee);
  InProgress.insert(&Callee);
  auto Analysis = std::make_unique<KeptAnalysis>(Callee, Model, Calls);
  FunctionFacts &Facts = Analysis->Facts;
  bool Converged = DeviceFlow(Context, Model, *this, Inputs, Facts, Entry).run();
  InProgress.erase(&Callee);
  if (!Converged)
    return ComputingFields ? CallSummary::unknown()
                           : Cache.emplace(std::move(Key), CallSummary::unknown()).first->second;

  // The callee's own Device variables mean nothing to the caller.
  bool Referenced = false;
  auto Export = [&](AbstractValue Value) {
    auto Clean = [&](ValueFact &Fact) {
      Fact.Devices = Fact.Devices.forgetIf([&](const AbstractDevice &D) {
        return !D.isConcrete() && D.symbol() && !D.isModuleDevice() &&
               Callee.Encloses(D.symbol()->getDeclContext());
      });
      exportMaker(Fact, Facts, Referenced);
    };
    Clean(Value.Whole);
    for (auto &[Path, Fact] : Value.Parts)
      Clean(Fact);
    return Value;
  };
  CallSummary Summary;
  Summary.Result = Export(Facts.returned());
  if (Summary.Result.Whole.Devices.isBottom())
    Summary.Result = AbstractValue(ValueFact::unknown());
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Callee); Method && !Method->isStatic())
    Summary.Object = Export(Facts.objectAtExit());
  for (const std::optional<AbstractValue> &Out : Facts.byReferenceAtExit())
    Summary.ByReference.push_back(Out ? std::optional(Export(*Out)) : std::nullopt);
  Summary.Mismatches = mismatchesOf(Facts);
  Summary.Transfers = transfersOfInputs(Callee, Facts);
  Summary.Synchronizes = !Facts.synchronizations().empty();
  Summary.DevicesEstablished = Facts.devicesEstablishedAtExit();
  if (givesPending(Inputs))
    Summary.PendingReads = pendingReadsOf(Facts);
  if (Referenced)
    keep(std::move(Analysis));
  if (ComputingFields)
    return Summary;
  Cache.emplace(Key, Summary);
  // What fails only with these inputs: what the function does not do wrong
  // on its own (analysed with its inputs unknown).
  if (!Inputs.Arguments.empty() || Inputs.Object || Inputs.Captures) {
    CallSummary Alone = summarize(Callee, CallInputs{});
    for (const CalleeFailure &Mismatch : Summary.Mismatches)
      if (llvm::none_of(Alone.Mismatches, [&](const CalleeFailure &Own) {
            return Own.Finding.Call == Mismatch.Finding.Call &&
                   Own.Finding.Through == Mismatch.Finding.Through;
          }))
        Summary.Failures.push_back(Mismatch);
  }
  return Cache[Key] = std::move(Summary);
}

std::vector<UnsynchronizedReadFinding> FunctionSummaries::pendingReadsOf(const FunctionFacts &Facts) {
  // The callee's own downloads are its own findings.
  class Collector : public FindingsHandler {
  public:
    explicit Collector(const FunctionFacts &Facts) : Facts(Facts) {}
    void onUnsynchronizedRead(const UnsynchronizedReadFinding &F) override {
      if (!Facts.factAt(F.Copy))
        Found.push_back(F);
    }
    const FunctionFacts &Facts;
    std::vector<UnsynchronizedReadFinding> Found;
  };
  Collector Reads(Facts);
  diagnoseUnsynchronizedRead(Facts, Reads);
  return std::move(Reads.Found);
}

std::vector<CalleeFailure> FunctionSummaries::mismatchesOf(const FunctionFacts &Facts) {
  // A "may" counts only between two single devices, not a merge of several.
  class Collector : public FindingsHandler {
  public:
    void onMixedDevice(const MixedDeviceFinding &F) override { Found.push_back({F, true}); }
    void onMayMixedDevice(const MixedDeviceFinding &F) override {
      if (F.First.Devices.single() && F.Second.Devices.single())
        Found.push_back({F, false});
    }
    std::vector<CalleeFailure> Found;
  };
  Collector Mismatches;
  diagnoseMixedDevice(Facts, Mismatches);
  return std::move(Mismatches.Found);
}

const EntryFacts *FunctionSummaries::capturesOf(const CXXRecordDecl &Closure) {
  auto It = Captures.find(&Closure);
  return It == Captures.end() ? nullptr : &It->second;
}

void FunctionSummaries::noteCaptures(const CXXRecordDecl &Closure, const EntryFacts &Captured) {
  auto [It, Inserted] = Captures.try_emplace(&Closure, Captured);
  if (Inserted)
    return;
  for (const auto &[Path, Fact] : Captured.Known) {
    auto [Known, New] = It->second.Known.try_emplace(Path, Fact);
    if (!New)
      Known->second = Known->second.join(Fact);
  }
}

} // namespace placelint::analysis
