#include "flow/CallerGuards.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <limits>

namespace placelint::analysis {

using namespace clang;

namespace {

const FunctionDecl *key(const FunctionDecl *Function) {
  return Function ? Function->getCanonicalDecl() : nullptr;
}

// Each direct call in the main file's functions, with the function it is
// in, and each function named otherwise than to call it.
class CallIndexer : public RecursiveASTVisitor<CallIndexer> {
public:
  using Base = RecursiveASTVisitor<CallIndexer>;

  CallIndexer(CallerGuards::CallSites &Calls, llvm::DenseSet<const FunctionDecl *> &Escaping,
              const ApiModel &Model)
      : Calls(Calls), Escaping(Escaping), Model(Model) {}

  bool TraverseDecl(Decl *D) {
    const auto *Function = dyn_cast_or_null<FunctionDecl>(D);
    if (!Function || !Function->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    Enclosing.push_back(Function);
    bool Continue = Base::TraverseDecl(D);
    Enclosing.pop_back();
    return Continue;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    if (const auto *Member = dyn_cast<MemberExpr>(Callee))
      CalleeNames.insert(Member);
    else
      CalleeNames.insert(Callee);
    note(Call->getDirectCallee(), *Call);
    // `model(x)` on a TORCH_MODULE holder calls its NetImpl's forward.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() >= 1)
      if (const CXXRecordDecl *Impl = Model.userModule(Op->getArg(0)->getType());
          Impl && Impl->hasDefinition())
        for (const CXXMethodDecl *Method : Impl->getDefinition()->methods())
          if (Model.classifyMethod(*Method).Kind == CallKind::ModuleForward)
            note(Method, *Call);
    // `std::make_shared<Net>(args)` constructs a Net there.
    if (Model.classifyCall(*Call).Kind == CallKind::MakeShared)
      if (const auto *Made = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
              Call->getType()->getAsCXXRecordDecl());
          Made && Made->getTemplateArgs().size() >= 1 &&
          Made->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        noteConstruction(Made->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl(),
                         Call->getNumArgs(), *Call);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    note(Construct->getConstructor(), *Construct);
    // A module holder (`Net net(args)` for TORCH_MODULE(Net)) constructs
    // its NetImpl.
    const CXXRecordDecl *Impl = Model.userModule(Construct->getType());
    if (Impl && Impl != Construct->getType()->getAsCXXRecordDecl())
      noteConstruction(Impl, Construct->getNumArgs(), *Construct);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl());
        Function && !CalleeNames.contains(Ref))
      Escaping.insert(key(Function));
    return true;
  }

  bool VisitMemberExpr(MemberExpr *Member) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
        Method && !CalleeNames.contains(Member))
      Escaping.insert(key(Method));
    return true;
  }

private:
  // A construction of Class from Arguments arguments: a call of each of its
  // constructors that can take that many.
  void noteConstruction(const CXXRecordDecl *Class, unsigned Arguments, const Expr &Call) {
    if (!Class || !Class->hasDefinition())
      return;
    for (const CXXConstructorDecl *Ctor : Class->getDefinition()->ctors())
      if (!Ctor->isCopyOrMoveConstructor() && Ctor->getMinRequiredArguments() <= Arguments &&
          Arguments <= Ctor->getNumParams())
        note(Ctor, Call);
  }

  void note(const FunctionDecl *Callee, const Expr &Call) {
    if (Callee && !Enclosing.empty())
      Calls[key(Callee)].push_back({Enclosing.back(), &Call});
  }

  CallerGuards::CallSites &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  const ApiModel &Model;
  llvm::SmallVector<const FunctionDecl *, 4> Enclosing;
  llvm::DenseSet<const Expr *> CalleeNames;
};

} // namespace

void CallerGuards::indexCalls() {
  Indexed = true;
  CallIndexer Indexer(Calls, Escaping, Model);
  const SourceManager &SM = Context.getSourceManager();
  // Helpers of the same file: its own declarations are enough, and the
  // (often huge) headers are not walked.
  for (Decl *D : Context.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Indexer.TraverseDecl(D);
}

CallersGuard CallerGuards::devicesEnsuredByCallers(const FunctionDecl &Function,
                                                   llvm::ArrayRef<const ParmVarDecl *> Flags) {
  if (!Indexed)
    indexCalls();
  CallersGuard Result;
  Result.Devices = ensuredByCallers(*key(&Function), 0, &Result.WeakestCall, Flags);
  if (Result.Devices == std::numeric_limits<unsigned>::max())
    Result = CallersGuard();
  return Result;
}

bool CallerGuards::passesFalse(const CallSite &Site,
                               llvm::ArrayRef<const ParmVarDecl *> Flags) const {
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Call = dyn_cast<CallExpr>(Site.Call)) {
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
    if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()))
      Args = Args.drop_front();
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Site.Call)) {
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
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
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  auto It = Calls.find(&Function);
  if (Depth > kMaxDepth || It == Calls.end() || Escaping.contains(&Function) ||
      (Method && Method->isVirtual()) || Function.isMain())
    return 0;
  InProgress.insert(&Function);
  unsigned Devices = std::numeric_limits<unsigned>::max();
  bool AnyRuns = false;
  for (const CallSite &Site : It->second) {
    if (!Flags.empty() && passesFalse(Site, Flags))
      continue;
    AnyRuns = true;
    unsigned Here = ensuredAt(Site);
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

unsigned CallerGuards::ensuredAt(const CallSite &Site) {
  auto [It, Inserted] = Graphs.try_emplace(Site.Caller);
  CallerGraph &Caller = It->second;
  if (Inserted) {
    CFG::BuildOptions Options;
    Options.AddInitializers = true;
    Options.setAllAlwaysAdd();
    Caller.Graph = CFG::buildCFG(Site.Caller, Site.Caller->getBody(), &Context, Options);
    if (Caller.Graph)
      Caller.Guards = std::make_unique<AvailabilityGuards>(*Caller.Graph, Model, Context);
  }
  unsigned ByName = Model.devicesEnsuredByTestName(*Site.Caller);
  return std::max(ByName, Caller.Guards ? Caller.Guards->devicesEnsuredAt(*Site.Call) : 0);
}

} // namespace placelint::analysis
