// placement-missing-device-guard: in CUDA extension code, a function that
// takes tensors and launches work on the current CUDA device (a `<<<...>>>`
// launch, a stream or library handle of the current device, a call of a
// launcher that takes no tensors) with no device guard on the path, here or
// around every call of it in the unit (docs/rules/placement-missing-device-guard.md).
//
// Order is the CFG's: a guard is in effect from its declaration to the end
// of its scope (the CFG's lifetime ends), a `set_device` on a guard or a
// `cudaSetDevice` from where it runs; what holds on every path into a block
// is what holds there. A lambda runs where it is written (AT_DISPATCH calls
// its lambdas at once). The API names come from api.def (PL_API_CUDA_LAUNCH,
// and the StreamGuard and CurrentStream names).
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "ApiSpellings.h"
#include "CallIndex.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace placelint::analysis {

using namespace clang;

namespace {

enum class LaunchApi { GuardType, GuardSetter, SetDevice, CurrentHandle };

struct LaunchApiName {
  LaunchApi Kind;
  llvm::StringLiteral Name;
};

constexpr LaunchApiName kLaunchApi[] = {
#define PL_API_CUDA_LAUNCH(Kind, Name) {LaunchApi::Kind, Name},
#include <placelint/api.def>
};

// api.def's names by role, of which the rule reads two: a stream guard
// (StreamGuard) makes its stream's device current, so it is a GuardType;
// the current stream (CurrentStream) is a CurrentHandle.
struct RoleName {
  ApiNameRole Role;
  llvm::StringLiteral Name;
};

constexpr RoleName kRoleNames[] = {
#define PL_API_NAME(Role, How, Text) {ApiNameRole::Role, Text},
#include <placelint/api.def>
};

std::optional<ApiNameRole> roleAlso(LaunchApi Kind) {
  switch (Kind) {
  case LaunchApi::GuardType:
    return ApiNameRole::StreamGuard;
  case LaunchApi::CurrentHandle:
    return ApiNameRole::CurrentStream;
  case LaunchApi::GuardSetter:
  case LaunchApi::SetDevice:
    return std::nullopt;
  }
  return std::nullopt;
}

// Whether D is named in the tables as Kind: by its qualified name, or by its
// own name for a GuardSetter. The unqualified name is compared first, so
// that most declarations cost no string.
bool isApi(const NamedDecl *D, LaunchApi Kind) {
  if (!D || !D->getIdentifier())
    return false;
  llvm::StringRef Own = D->getName();
  std::optional<std::string> Qualified;
  auto IsNamed = [&](llvm::StringRef Name) {
    if (!Name.ends_with(Own))
      return false;
    if (!Qualified)
      Qualified = D->getQualifiedNameAsString();
    return *Qualified == Name;
  };
  for (const LaunchApiName &Entry : kLaunchApi) {
    if (Entry.Kind != Kind)
      continue;
    if (Kind == LaunchApi::GuardSetter ? Entry.Name == Own : IsNamed(Entry.Name))
      return true;
  }
  const std::optional<ApiNameRole> Role = roleAlso(Kind);
  return Role && llvm::any_of(kRoleNames, [&](const RoleName &Entry) {
           return Entry.Role == *Role && IsNamed(Entry.Name);
         });
}

bool isGuardType(QualType Type) {
  return isApi(Type.getNonReferenceType()->getAsCXXRecordDecl(), LaunchApi::GuardType);
}

const FunctionDecl *calleeOf(const CallExpr &Call) { return Call.getDirectCallee(); }

// A function of the user's code with a body to look into: not one of a
// system header (the libraries' own inline functions launch nothing of the
// user's, and are many).
const FunctionDecl *definedCallee(const CallExpr &Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition))
    return nullptr;
  const SourceManager &SM = Definition->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(Definition->getLocation())) ? nullptr
                                                                            : Definition;
}

// The syntax of one body, lambdas included: whether it launches anything
// itself, the functions of the unit it calls, and the handle calls that are
// no launch of their own: those configuring a `<<<...>>>` launch (reported
// at the launch), and those only waited on or queried
// (`getCurrentCUDAStream().synchronize()`, a method giving no handle).
class LaunchScan : public RecursiveASTVisitor<LaunchScan> {
public:
  bool Launches = false;
  llvm::SmallVector<const FunctionDecl *, 4> Callees;
  llvm::DenseSet<const Expr *> NotLaunches;

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const auto *Handle = dyn_cast<CallExpr>(Call->getImplicitObjectArgument()->IgnoreImplicit());
    QualType Result = Call->getType();
    if (Handle && isApi(calleeOf(*Handle), LaunchApi::CurrentHandle) &&
        (Result->isVoidType() || Result->isBooleanType()))
      NotLaunches.insert(Handle);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    Launches = true;
    if (const CallExpr *Config = Launch->getConfig())
      collectCalls(Config);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isApi(calleeOf(*Call), LaunchApi::CurrentHandle))
      Launches = true;
    else if (const FunctionDecl *Callee = definedCallee(*Call))
      Callees.push_back(Callee);
    return true;
  }

private:
  void collectCalls(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      NotLaunches.insert(Call);
    for (const Stmt *Child : S->children())
      collectCalls(Child);
  }
};

// Whether the current device is set for a scope by a guard, or for good.
struct GuardState {
  bool Reached = false;
  bool DeviceSet = false;
  llvm::SmallVector<const VarDecl *, 2> Guards; // sorted, unique

  bool guarded() const { return DeviceSet || !Guards.empty(); }
  void add(const VarDecl *Guard) {
    auto At = std::lower_bound(Guards.begin(), Guards.end(), Guard);
    if (At == Guards.end() || *At != Guard)
      Guards.insert(At, Guard);
  }
  void remove(const VarDecl *Guard) { llvm::erase(Guards, Guard); }
  // What holds on both paths.
  void join(const GuardState &Other) {
    if (!Other.Reached)
      return;
    if (!Reached) {
      *this = Other;
      return;
    }
    DeviceSet = DeviceSet && Other.DeviceSet;
    llvm::erase_if(Guards, [&](const VarDecl *G) { return !llvm::is_contained(Other.Guards, G); });
  }
  friend bool operator==(const GuardState &, const GuardState &) = default;
};

// A place of a body where the guard state matters, in CFG order.
struct GuardEvent {
  const Expr *Where = nullptr;
  LaunchKind Kind = LaunchKind::Kernel;
  bool Guarded = false;
  const FunctionDecl *Callee = nullptr; // Kind == Call
};

// The guard state at the launches and calls of one function's bodies.
using GuardEvents = std::vector<GuardEvent>;

class DeviceGuardRule {
public:
  // Sequence: the order of Facts' function, whose CFG the walk of that
  // function reuses.
  DeviceGuardRule(const FunctionFacts &Facts)
      : Context(Facts.function().getASTContext()), Model(Facts.body().model()),
        Analysed(Facts.function().getCanonicalDecl()), AnalysedGraph(Facts.sequence().graph()),
        Calls(Facts.calls()) {
    Options.AddLifetime = true;
    Options.setAllAlwaysAdd();
  }

  void diagnose(const FunctionDecl &Function, FindingsHandler &Handler);

private:
  static constexpr unsigned kMaxDepth = 3;
  struct Launch {
    const GuardEvent *Event;
    const Expr *Inner; // the launch itself, calls down
  };

  const LaunchScan &scan(const FunctionDecl &Function);
  // Whether the body or a function it calls (a few levels down) launches.
  bool mayLaunch(const FunctionDecl &Function, unsigned Depth);
  bool takesTensors(const FunctionDecl &Function) const;
  const GuardEvents &events(const FunctionDecl &Function);
  // The events of a body whose CFG is built here: a caller's or callee's
  // (the flow's CFG of a function lives only while its rules run), or a
  // lambda's, walked from the state where the lambda is written.
  void walk(const Decl &D, Stmt &Body, const GuardState &Initial, const LaunchScan &Syntax,
            GuardEvents &Out);
  void walk(const CFG &Graph, const GuardState &Initial, const LaunchScan &Syntax,
            GuardEvents &Out);
  void transfer(const CFGBlock &Block, GuardState &State, const LaunchScan &Syntax,
                GuardEvents *Out);
  // The first launch of Function reached with no guard of its own.
  std::optional<Launch> unguardedLaunch(const FunctionDecl &Function, unsigned Depth);
  // For a launcher that takes no tensors: the launch it makes unguarded.
  const Expr *launchesUnguarded(const FunctionDecl &Function, unsigned Depth);
  // Whether every call of Function in the unit has a guard on its path (its
  // callers' callers too, a few levels up); Unguarded: the first call that
  // has none.
  bool guardedByCallers(const FunctionDecl &Function, unsigned Depth,
                        const Expr **Unguarded = nullptr);

  ASTContext &Context;
  const ApiModel &Model;
  const FunctionDecl *Analysed;
  const CFG *AnalysedGraph;
  CFG::BuildOptions Options;
  // By pointer: what they hold stays put while the maps grow.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<LaunchScan>> Scans;
  llvm::DenseMap<const FunctionDecl *, bool> MayLaunch;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<GuardEvents>> Events;
  llvm::DenseMap<const FunctionDecl *, const Expr *> UnguardedInLauncher;
  llvm::SmallPtrSet<const FunctionDecl *, 4> InProgress;
  CallIndex &Calls; // the unit's
};

const LaunchScan &DeviceGuardRule::scan(const FunctionDecl &Function) {
  std::unique_ptr<LaunchScan> &Scan = Scans[&Function];
  if (!Scan) {
    Scan = std::make_unique<LaunchScan>();
    if (Function.getBody())
      Scan->TraverseStmt(Function.getBody());
  }
  return *Scan;
}

bool DeviceGuardRule::mayLaunch(const FunctionDecl &Function, unsigned Depth) {
  if (auto It = MayLaunch.find(&Function); It != MayLaunch.end())
    return It->second;
  MayLaunch[&Function] = false; // recursion launches nothing new
  const LaunchScan &Syntax = scan(Function);
  bool Result = Syntax.Launches;
  if (!Result && Depth < kMaxDepth)
    for (const FunctionDecl *Callee : Syntax.Callees)
      if (!takesTensors(*Callee) && mayLaunch(*Callee, Depth + 1)) {
        Result = true;
        break;
      }
  MayLaunch[&Function] = Result;
  return Result;
}

bool DeviceGuardRule::takesTensors(const FunctionDecl &Function) const {
  return llvm::any_of(Function.parameters(), [&](const ParmVarDecl *Parameter) {
    ValueKind Kind = Model.classify(Parameter->getType());
    return Kind == ValueKind::Tensor || Kind == ValueKind::TensorList;
  });
}

const GuardEvents &DeviceGuardRule::events(const FunctionDecl &Function) {
  if (auto It = Events.find(&Function); It != Events.end())
    return *It->second;
  auto Out = std::make_unique<GuardEvents>();
  GuardState Entry;
  Entry.Reached = true;
  if (Function.getCanonicalDecl() == Analysed) {
    if (AnalysedGraph)
      walk(*AnalysedGraph, Entry, scan(Function), *Out);
  } else if (Stmt *Body = Function.getBody()) {
    walk(Function, *Body, Entry, scan(Function), *Out);
  }
  return *(Events[&Function] = std::move(Out));
}

void DeviceGuardRule::walk(const Decl &D, Stmt &Body, const GuardState &Initial,
                           const LaunchScan &Syntax, GuardEvents &Out) {
  if (std::unique_ptr<CFG> Graph = CFG::buildCFG(&D, &Body, &Context, Options))
    walk(*Graph, Initial, Syntax, Out);
}

void DeviceGuardRule::walk(const CFG &Graph, const GuardState &Initial, const LaunchScan &Syntax,
                           GuardEvents &Out) {
  PostOrderCFGView Order(&Graph);
  llvm::DenseMap<const CFGBlock *, GuardState> Exit;
  auto entryOf = [&](const CFGBlock &Block) {
    if (&Block == &Graph.getEntry())
      return Initial;
    GuardState In;
    for (const CFGBlock *Pred : Block.preds())
      if (Pred)
        if (auto It = Exit.find(Pred); It != Exit.end())
          In.join(It->second);
    return In;
  };
  // Guards only leave the set on the way round, so this ends.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *Block : Order) {
      GuardState State = entryOf(*Block);
      transfer(*Block, State, Syntax, nullptr);
      GuardState &Old = Exit[Block];
      if (!(Old == State)) {
        Old = std::move(State);
        Changed = true;
      }
    }
  }
  for (const CFGBlock *Block : Order) {
    GuardState State = entryOf(*Block);
    if (State.Reached)
      transfer(*Block, State, Syntax, &Out);
  }
}

void DeviceGuardRule::transfer(const CFGBlock &Block, GuardState &State,
                               const LaunchScan &Syntax, GuardEvents *Out) {
  if (!State.Reached)
    return;
  auto record = [&](const Expr &Where, LaunchKind Kind, const FunctionDecl *Callee = nullptr) {
    if (Out)
      Out->push_back({&Where, Kind, State.guarded(), Callee});
  };
  for (const CFGElement &Element : Block) {
    if (auto Ends = Element.getAs<CFGLifetimeEnds>()) {
      State.remove(Ends->getVarDecl());
      continue;
    }
    auto Statement = Element.getAs<CFGStmt>();
    if (!Statement)
      continue;
    const Stmt *S = Statement->getStmt();
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      // A guard given a device when it is made; a default-constructed one
      // guards nothing until a GuardSetter gives it one.
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && isGuardType(Var->getType()))
          if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Var->getInit());
              Construct && Construct->getNumArgs() > 0 &&
              !isa<CXXDefaultArgExpr>(Construct->getArg(0)))
            State.add(Var);
    } else if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
      record(*Launch, LaunchKind::Kernel);
    } else if (const auto *Method = dyn_cast<CXXMemberCallExpr>(S)) {
      const auto *Object =
          dyn_cast<DeclRefExpr>(Method->getImplicitObjectArgument()->IgnoreParenImpCasts());
      const auto *Guard = Object ? dyn_cast<VarDecl>(Object->getDecl()) : nullptr;
      if (Guard && isGuardType(Guard->getType()) &&
          isApi(Method->getMethodDecl(), LaunchApi::GuardSetter))
        State.add(Guard);
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = calleeOf(*Call);
      if (isApi(Callee, LaunchApi::SetDevice))
        State.DeviceSet = true;
      else if (isApi(Callee, LaunchApi::CurrentHandle)) {
        if (!Syntax.NotLaunches.contains(Call))
          record(*Call, LaunchKind::CurrentHandle);
      } else if (const FunctionDecl *Defined = definedCallee(*Call))
        record(*Call, LaunchKind::Call, Defined);
    } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S); Lambda && Out) {
      if (Stmt *Body = Lambda->getBody())
        walk(*Lambda->getCallOperator(), *Body, State, Syntax, *Out);
    }
  }
}

std::optional<DeviceGuardRule::Launch>
DeviceGuardRule::unguardedLaunch(const FunctionDecl &Function, unsigned Depth) {
  for (const GuardEvent &Event : events(Function)) {
    if (Event.Guarded)
      continue;
    if (Event.Kind != LaunchKind::Call)
      return Launch{&Event, Event.Where};
    if (Depth < kMaxDepth && !takesTensors(*Event.Callee))
      if (const Expr *Inner = launchesUnguarded(*Event.Callee, Depth + 1))
        return Launch{&Event, Inner};
  }
  return std::nullopt;
}

const Expr *DeviceGuardRule::launchesUnguarded(const FunctionDecl &Function, unsigned Depth) {
  if (auto It = UnguardedInLauncher.find(&Function); It != UnguardedInLauncher.end())
    return It->second;
  UnguardedInLauncher[&Function] = nullptr; // a recursive call launches nothing new
  const Expr *Inner = nullptr;
  if (mayLaunch(Function, Depth))
    if (std::optional<Launch> Found = unguardedLaunch(Function, Depth))
      Inner = Found->Inner;
  UnguardedInLauncher[&Function] = Inner;
  return Inner;
}

bool DeviceGuardRule::guardedByCallers(const FunctionDecl &Function, unsigned Depth,
                                       const Expr **Unguarded) {
  const FunctionDecl *Key = Function.getCanonicalDecl();
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  llvm::ArrayRef<CallIndex::CallSite> Sites = Calls.callsOf(Function);
  if (Depth > kMaxDepth || Sites.empty() || Calls.escapes(Function) ||
      (Method && Method->isVirtual()) || Function.isMain() || InProgress.contains(Key))
    return false;
  InProgress.insert(Key);
  bool Guarded = true, Called = false;
  for (const CallIndex::CallSite &Site : Sites) {
    // A call of itself comes from a call already looked at; the walk
    // records only direct calls (a construction, a holder's forward, are
    // none).
    if (!Site.Direct || Site.Caller->getCanonicalDecl() == Key)
      continue;
    Called = true;
    const GuardEvents &InCaller = events(*Site.Caller);
    auto Event =
        llvm::find_if(InCaller, [&](const GuardEvent &E) { return E.Where == Site.Call; });
    // A call the caller's CFG never reaches does not run.
    bool Here = Event == InCaller.end() || Event->Guarded ||
                guardedByCallers(*Site.Caller, Depth + 1);
    if (!Here) {
      Guarded = false;
      if (Unguarded)
        *Unguarded = Site.Call;
      break;
    }
  }
  InProgress.erase(Key);
  return Called && Guarded;
}

void DeviceGuardRule::diagnose(const FunctionDecl &Function, FindingsHandler &Handler) {
  // A launcher taking no tensors is judged where it is called; a lambda
  // where it is written.
  if (isLambdaCallOperator(&Function) || !takesTensors(Function) || !mayLaunch(Function, 0))
    return;
  std::optional<Launch> Found = unguardedLaunch(Function, 0);
  if (!Found)
    return;
  const Expr *UnguardedCall = nullptr;
  if (guardedByCallers(Function, 0, &UnguardedCall))
    return;
  MissingDeviceGuardFinding Finding;
  Finding.Launch = Found->Event->Where;
  Finding.Kind = Found->Event->Kind;
  Finding.Function = &Function;
  for (const ParmVarDecl *Parameter : Function.parameters())
    if (Model.classify(Parameter->getType()) == ValueKind::Tensor) {
      Finding.Tensor = Parameter;
      break;
    }
  if (Finding.Kind == LaunchKind::Call)
    Finding.LaunchInCallee = Found->Inner;
  Finding.UnguardedCall = UnguardedCall;
  Handler.onMissingDeviceGuard(Finding);
}

} // namespace

void diagnoseMissingDeviceGuard(const FunctionFacts &Facts, FindingsHandler &Handler) {
  DeviceGuardRule(Facts).diagnose(Facts.function(), Handler);
}

} // namespace placelint::analysis
