#include "flow/FunctionSummaries.h"

#include "BodyFacts.h"
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/Support/raw_ostream.h"

namespace placelint::analysis {

using namespace clang;

SummaryProvider::~SummaryProvider() = default;

bool isAnalyzable(const FunctionDecl &Function, const ASTContext &Context) {
  return Function.hasBody() && Function.doesThisDeclarationHaveABody() &&
         !Function.isDependentContext() && !Function.isInvalidDecl() &&
         !Context.getDiagnostics().hasUncompilableErrorOccurred();
}

namespace {

// The cache key: the callee and its arguments' devices and ranks.
std::string summaryKey(const FunctionDecl &Callee, llvm::ArrayRef<ValueFact> Arguments) {
  std::string Key;
  llvm::raw_string_ostream Stream(Key);
  Stream << static_cast<const void *>(&Callee);
  for (const ValueFact &Arg : Arguments) {
    Stream << '|' << static_cast<int>(Arg.Dim) << Arg.OptionsWithoutDevice;
    Stream << (Arg.Devices.isBottom() ? "b" : Arg.Devices.isUnknown() ? "u" : "s");
    for (const AbstractDevice &D : Arg.Devices.devices())
      Stream << ',' << D.isConcrete() << static_cast<int>(D.type()) << ':' << D.index()
             << ':' << static_cast<const void *>(D.symbol());
  }
  return Key;
}

bool isRegistration(const Stmt &S) {
  const auto *Call = dyn_cast<CallExpr>(&S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() && Callee->getName().starts_with("register_");
}

// Whether S calls register_module / register_parameter / register_buffer.
bool callsRegistration(const Stmt *S) { return findInTree(S, isRegistration); }

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
void collectRegistered(const Stmt *S, llvm::SmallPtrSetImpl<const ValueDecl *> &Registered) {
  if (!S)
    return;
  if (isRegistration(*S))
    collectFields(S, Registered);
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  if (const auto *Assign = dyn_cast<BinaryOperator>(S); Assign && Assign->isAssignmentOp())
    Lhs = Assign->getLHS(), Rhs = Assign->getRHS();
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(S);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2)
    Lhs = Assign->getArg(0), Rhs = Assign->getArg(1);
  if (Lhs && callsRegistration(Rhs))
    if (const ValueDecl *Field = trackedDecl(Lhs); Field && isa<FieldDecl>(Field))
      Registered.insert(Field);
  for (const Stmt *Child : S->children())
    collectRegistered(Child, Registered);
}

bool isModuleClass(const CXXRecordDecl &Class, const ApiModel &Model) {
  return Model.classify(QualType(Class.getTypeForDecl(), 0)) == ValueKind::Module;
}

} // namespace

std::unique_ptr<EntryFacts> FunctionSummaries::computeFields(const CXXRecordDecl &Class) {
  auto Result = std::make_unique<EntryFacts>();
  llvm::SmallPtrSet<const ValueDecl *, 8> Registered;
  forEachMethodCode(Class, [&](const Stmt &Code, const FieldDecl *Initialized) {
    collectRegistered(&Code, Registered);
    if (Initialized && callsRegistration(&Code)) // `fc(register_module("fc", ...))`
      Registered.insert(Initialized);
  });
  // The other fields: as the methods that set them leave them.
  for (const CXXMethodDecl *Method : Class.methods()) {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method);
    if (!isAnalyzable(*Method, Context) || Method->isConst() ||
        (Ctor && Ctor->isCopyOrMoveConstructor()) || Method->isCopyAssignmentOperator() ||
        Method->isMoveAssignmentOperator() ||
        (Method->getIdentifier() && Method->getName() == "forward"))
      continue;
    BodyFacts Body(*Method->getBody(), Model);
    if (!Body.mentionsApi() && !(Ctor && Ctor->getNumCtorInitializers()))
      continue;
    FunctionFacts Facts(*Method, Body);
    if (!DeviceFlow(Context, Model, *this, /*Arguments=*/{}, Facts).run())
      continue;
    for (const auto &[Field, Fact] : Facts.fieldsAtExit()) {
      ValueFact Kept = Fact;
      // The method's own Device variables and parameters mean nothing later.
      Kept.Devices = Kept.Devices.forgetIf([&](const AbstractDevice &D) {
        return !D.isConcrete() && Method->Encloses(D.symbol()->getDeclContext());
      });
      Kept.forgetTransfer();
      ValueFact &Joined = Result->Known[Field];
      Joined = Joined.join(Kept);
    }
  }
  ValueFact Moves = ValueFact::on(DeviceSet::of(AbstractDevice::ofModule(&Class)), ZeroDim::No);
  for (const ValueDecl *Field : Registered)
    Result->Known[Field] = Moves;
  return Result;
}

bool FunctionSummaries::registersState(const CXXRecordDecl &Module) {
  auto [It, Inserted] = Registers.try_emplace(&Module, false);
  if (!Inserted || !Module.hasDefinition())
    return It->second;
  forEachMethodCode(*Module.getDefinition(), [&](const Stmt &Code, const FieldDecl *) {
    It->second = It->second || callsRegistration(&Code);
  });
  return It->second;
}

const EntryFacts *FunctionSummaries::moduleEntryOf(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (!Method || isa<CXXConstructorDecl>(Method) || Method->isStatic() ||
      !isModuleClass(*Method->getParent(), Model))
    return nullptr;
  const CXXRecordDecl &Class = *Method->getParent();
  std::unique_ptr<EntryFacts> &Fields = Modules[&Class];
  if (!Fields)
    Fields = computeFields(Class);
  if (!Method->getIdentifier() || Method->getName() != "forward")
    return Fields.get();
  std::unique_ptr<EntryFacts> &Forward = ForwardContexts[&Class];
  if (!Forward) {
    Forward = std::make_unique<EntryFacts>(*Fields);
    Forward->InputDevice = AbstractDevice::ofModule(&Class);
  }
  return Forward.get();
}

ValueFact FunctionSummaries::resultOf(const FunctionDecl &Callee,
                                      llvm::ArrayRef<ValueFact> Arguments) {
  if (!isAnalyzable(Callee, Context) || InProgress.contains(&Callee) ||
      InProgress.size() >= kMaxDepth)
    return ValueFact::unknown();
  std::string Key = summaryKey(Callee, Arguments);
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;

  InProgress.insert(&Callee);
  BodyFacts Body(*Callee.getBody(), Model);
  FunctionFacts Facts(Callee, Body);
  bool Converged = DeviceFlow(Context, Model, *this, Arguments, Facts).run();
  InProgress.erase(&Callee);
  ValueFact Summary = Converged ? Facts.returned() : ValueFact::unknown();
  if (Summary.Devices.isBottom())
    Summary = ValueFact::unknown();
  // The callee's own Device variables mean nothing to the caller.
  // Nor does the device of the callee's own module.
  Summary.Devices = Summary.Devices.forgetIf([&](const AbstractDevice &D) {
    return !D.isConcrete() && D.symbol() &&
           (D.isModuleDevice() || Callee.Encloses(D.symbol()->getDeclContext()));
  });
  Summary.setOrigin({});
  Summary.forgetTransfer();
  Cache.emplace(std::move(Key), Summary);
  return Summary;
}

} // namespace placelint::analysis
