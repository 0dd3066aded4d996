#include "flow/CallerGuards.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <limits>

namespace placelint::analysis {

using namespace clang;

namespace {

const FunctionDecl *key(const FunctionDecl *Function) {
  return Function ? Function->getCanonicalDecl() : nullptr;
}

// Where the lambda whose call operator Function is is written, as a call
// there: a lambda called out of the unit's sight (through a std::function,
// by a std algorithm) runs where it is written.
std::optional<CallIndex::CallSite> writtenAt(const FunctionDecl &Function) {
  const auto *Operator = dyn_cast<CXXMethodDecl>(&Function);
  const CXXRecordDecl *Closure = Operator ? Operator->getParent() : nullptr;
  const auto *Enclosing =
      Closure && Closure->isLambda() ? dyn_cast<FunctionDecl>(Closure->getDeclContext()) : nullptr;
  const FunctionDecl *Definition = nullptr;
  if (!Enclosing || !Enclosing->hasBody(Definition))
    return std::nullopt;
  const Stmt *Lambda = findInTree(Definition->getBody(), [&](const Stmt &S) {
    const auto *Written = dyn_cast<LambdaExpr>(&S);
    return Written && Written->getLambdaClass() == Closure;
  });
  if (!Lambda)
    return std::nullopt;
  return CallIndex::CallSite{Definition, cast<Expr>(Lambda), /*Direct=*/true};
}

} // namespace

CallersGuard CallerGuards::devicesEnsuredByCallers(const FunctionDecl &Function,
                                                   llvm::ArrayRef<const ValueDecl *> Flags) {
  CallersGuard Result;
  Result.Devices = ensuredByCallers(*key(&Function), 0, &Result.WeakestCall, Flags);
  if (Result.Devices == std::numeric_limits<unsigned>::max())
    Result = CallersGuard();
  return Result;
}

namespace {

// The arguments of a call site, as the callee's parameters number them.
llvm::ArrayRef<const Expr *> argumentsOf(const CallIndex::CallSite &Site) {
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Call = dyn_cast<CallExpr>(Site.Call)) {
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
    if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()))
      Args = Args.drop_front();
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Site.Call)) {
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  return Args;
}

// The field's value as the object's construction Init gives it: the
// aggregate's element, the constructor's member initializer (a parameter of
// it: the construction's argument; else the value written), or the field's
// default member initializer; null when unknown.
const Expr *fieldValueFrom(const Expr *Init, const FieldDecl &Field) {
  Init = Init ? Init->IgnoreImplicit() : nullptr;
  if (const auto *List = dyn_cast_or_null<InitListExpr>(Init)) {
    unsigned Index = Field.getFieldIndex();
    return Index < List->getNumInits() ? List->getInit(Index) : Field.getInClassInitializer();
  }
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
  const CXXConstructorDecl *Ctor = Construct ? Construct->getConstructor() : nullptr;
  const FunctionDecl *Definition = nullptr;
  if (!Ctor || !Ctor->hasBody(Definition))
    return nullptr;
  for (const CXXCtorInitializer *Member : cast<CXXConstructorDecl>(Definition)->inits()) {
    if (Member->getMember() != &Field)
      continue;
    const Expr *Value = Member->getInit()->IgnoreImplicit();
    if (const auto *Direct = dyn_cast<ParenListExpr>(Value); Direct && Direct->getNumExprs() == 1)
      Value = Direct->getExpr(0);
    const auto *Ref = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts());
    const auto *Parameter = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Parameter)
      return Value;
    unsigned Index = Parameter->getFunctionScopeIndex();
    return Index < Construct->getNumArgs() ? Construct->getArg(Index) : nullptr;
  }
  return Field.getInClassInitializer();
}

// The expression of Site's caller that gives Flag its value: the argument
// for a parameter; for a field of the method's object, what the object's
// construction (a local of the caller) put there; null when unknown.
const Expr *flagValueAt(const CallIndex::CallSite &Site, const ValueDecl &Flag) {
  if (const auto *Parameter = dyn_cast<ParmVarDecl>(&Flag)) {
    llvm::ArrayRef<const Expr *> Args = argumentsOf(Site);
    unsigned Index = Parameter->getFunctionScopeIndex();
    return Index < Args.size() ? Args[Index]->IgnoreParenImpCasts() : nullptr;
  }
  const auto *Field = dyn_cast<FieldDecl>(&Flag);
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Site.Call);
  if (!Field || !Call || !Site.Direct)
    return nullptr;
  const auto *Object = dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *Local = Object ? dyn_cast<VarDecl>(Object->getDecl()) : nullptr;
  if (!Local || !Local->isLocalVarDecl() || Local->getType()->isReferenceType())
    return nullptr;
  const Expr *Value = fieldValueFrom(Local->getInit(), *Field);
  return Value ? Value->IgnoreParenImpCasts() : nullptr;
}

} // namespace

bool CallerGuards::passesFalse(const CallIndex::CallSite &Site,
                               llvm::ArrayRef<const ValueDecl *> Flags) const {
  return llvm::any_of(Flags, [&](const ValueDecl *Flag) {
    const Expr *Passed = flagValueAt(Site, *Flag);
    bool Value = true;
    return Passed && !Passed->isValueDependent() &&
           Passed->EvaluateAsBooleanCondition(Value, Context) && !Value;
  });
}

// max() stands for "no call to judge by" (only recursive ones), which the
// minimum over the other calls ignores.
unsigned CallerGuards::ensuredByCallers(const FunctionDecl &Function, unsigned Depth,
                                        const Expr **Weakest,
                                        llvm::ArrayRef<const ValueDecl *> Flags) {
  if (InProgress.contains(&Function))
    return std::numeric_limits<unsigned>::max();
  llvm::ArrayRef<CallIndex::CallSite> Sites = Calls.callsOf(Function);
  std::optional<CallIndex::CallSite> Written = Sites.empty() ? writtenAt(Function) : std::nullopt;
  if (Written)
    Sites = *Written;
  if (Depth > kMaxDepth || Sites.empty() || Calls.escapes(Function) || Function.isMain())
    return 0;
  InProgress.insert(&Function);
  unsigned Devices = std::numeric_limits<unsigned>::max();
  bool AnyRuns = false;
  for (const CallIndex::CallSite &Site : Sites) {
    if (!Flags.empty() && passesFalse(Site, Flags))
      continue;
    AnyRuns = true;
    unsigned Here = std::max(ensuredAt(Site), ensuredByFlags(Site, Depth, Flags));
    if (Here < Devices)
      Here = std::max(Here, ensuredByCallers(*key(Site.Caller), Depth + 1));
    if (Here < Devices && Weakest)
      *Weakest = Site.Call;
    Devices = std::min(Devices, Here);
    if (Devices == 0)
      break;
  }
  InProgress.erase(&Function);
  // Every call passes false: what needs the devices never runs here.
  return AnyRuns ? Devices : kNeverRuns;
}

unsigned CallerGuards::ensuredByFlags(const CallIndex::CallSite &Site, unsigned Depth,
                                      llvm::ArrayRef<const ValueDecl *> Flags) {
  unsigned Devices = 0;
  for (const ValueDecl *Flag : Flags) {
    const Expr *Argument = flagValueAt(Site, *Flag);
    if (!Argument)
      continue;
    const CallerGraph &Caller = graphOf(*Site.Caller);
    if (Caller.Guards)
      Devices = std::max(Devices, Caller.Guards->devicesEnsuredIfTrue(*Argument));
    // The caller's own flag, passed on: its callers say.
    const auto *Ref = dyn_cast<DeclRefExpr>(Argument);
    if (const auto *Passed = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
        Passed && Passed->getType().getNonReferenceType()->isBooleanType()) {
      const ValueDecl *PassedOn = Passed;
      unsigned ByCallers = ensuredByCallers(*key(Site.Caller), Depth + 1, nullptr, PassedOn);
      if (ByCallers != std::numeric_limits<unsigned>::max())
        Devices = std::max(Devices, ByCallers);
    }
  }
  return Devices;
}

const CallerGuards::CallerGraph &CallerGuards::graphOf(const FunctionDecl &Caller) {
  auto [It, Inserted] = Graphs.try_emplace(&Caller);
  CallerGraph &Graph = It->second;
  if (Inserted) {
    CFG::BuildOptions Options;
    Options.AddInitializers = true;
    Options.setAllAlwaysAdd();
    Graph.Graph = CFG::buildCFG(&Caller, Caller.getBody(), &Context, Options);
    if (Graph.Graph)
      Graph.Guards = std::make_unique<AvailabilityGuards>(*Graph.Graph, Model, Context);
  }
  return Graph;
}

unsigned CallerGuards::ensuredAt(const CallIndex::CallSite &Site) {
  const CallerGraph &Caller = graphOf(*Site.Caller);
  unsigned ByName = Model.devicesEnsuredByTestName(*Site.Caller);
  return std::max(ByName, Caller.Guards ? Caller.Guards->devicesEnsuredAt(*Site.Call) : 0);
}

} // namespace placelint::analysis
