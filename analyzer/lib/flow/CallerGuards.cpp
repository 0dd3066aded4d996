#include "flow/CallerGuards.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

#include <algorithm>
#include <limits>

namespace placelint::analysis {

using namespace clang;

namespace {

const FunctionDecl *key(const FunctionDecl *Function) {
  return Function ? Function->getCanonicalDecl() : nullptr;
}

} // namespace

CallersGuard CallerGuards::devicesEnsuredByCallers(const FunctionDecl &Function,
                                                   llvm::ArrayRef<const ParmVarDecl *> Flags) {
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

} // namespace

bool CallerGuards::passesFalse(const CallIndex::CallSite &Site,
                               llvm::ArrayRef<const ParmVarDecl *> Flags) const {
  llvm::ArrayRef<const Expr *> Args = argumentsOf(Site);
  return llvm::any_of(Flags, [&](const ParmVarDecl *Flag) {
    unsigned Index = Flag->getFunctionScopeIndex();
    bool Value = true;
    return Index < Args.size() && !Args[Index]->isValueDependent() &&
           Args[Index]->EvaluateAsBooleanCondition(Value, Context) && !Value;
  });
}

// max() stands for "no call to judge by" (only recursive ones), which the
// minimum over the other calls ignores.
unsigned CallerGuards::ensuredByCallers(const FunctionDecl &Function, unsigned Depth,
                                        const Expr **Weakest,
                                        llvm::ArrayRef<const ParmVarDecl *> Flags) {
  if (InProgress.contains(&Function))
    return std::numeric_limits<unsigned>::max();
  llvm::ArrayRef<CallIndex::CallSite> Sites = Calls.callsOf(Function);
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
                                      llvm::ArrayRef<const ParmVarDecl *> Flags) {
  llvm::ArrayRef<const Expr *> Args = argumentsOf(Site);
  unsigned Devices = 0;
  for (const ParmVarDecl *Flag : Flags) {
    unsigned Index = Flag->getFunctionScopeIndex();
    if (Index >= Args.size())
      continue;
    const Expr *Argument = Args[Index]->IgnoreParenImpCasts();
    const CallerGraph &Caller = graphOf(*Site.Caller);
    if (Caller.Guards)
      Devices = std::max(Devices, Caller.Guards->devicesEnsuredIfTrue(*Argument));
    // The caller's own flag, passed on: its callers say.
    const auto *Ref = dyn_cast<DeclRefExpr>(Argument);
    if (const auto *Passed = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
        Passed && Passed->getType().getNonReferenceType()->isBooleanType()) {
      unsigned ByCallers = ensuredByCallers(*key(Site.Caller), Depth + 1, nullptr, {Passed});
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
