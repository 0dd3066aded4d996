#include "CallIndex.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

namespace {

using CallSites = llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<CallIndex::CallSite, 2>>;

const FunctionDecl *key(const FunctionDecl *Function) {
  return Function ? Function->getCanonicalDecl() : nullptr;
}

class CallIndexer : public RecursiveASTVisitor<CallIndexer> {
public:
  using Base = RecursiveASTVisitor<CallIndexer>;

  CallIndexer(CallSites &Calls, llvm::DenseSet<const FunctionDecl *> &Escaping,
              const ApiModel &Model, const SourceManager &SM)
      : Calls(Calls), Escaping(Escaping), Model(Model), SM(SM) {}

  // A call through a virtual method calls each of its overrides in the
  // unit: noted once all of them are known.
  void noteVirtualCalls() {
    for (const auto &[Callee, Site] : VirtualCalls)
      for (const CXXMethodDecl *Override : Overrides.lookup(Callee))
        note(Override, *Site.Call, /*Direct=*/false, Site.Caller);
  }

  // A template's calls are those of its instantiations: a call the
  // template's own body leaves dependent (`model(x)` on a `T&`) names its
  // callee there only.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    const auto *Function = dyn_cast_or_null<FunctionDecl>(D);
    if (!Function || !Function->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    Enclosing.push_back(Function);
    bool Continue = Base::TraverseDecl(D);
    Enclosing.pop_back();
    return Continue;
  }

  bool VisitCXXMethodDecl(CXXMethodDecl *Method) {
    // A call of a method this one overrides (a few bases up) may run this
    // one.
    llvm::SmallVector<const CXXMethodDecl *, 4> Bases(Method->overridden_methods());
    for (unsigned I = 0; I < Bases.size() && I < kMaxOverridden; ++I) {
      Overrides[Bases[I]->getCanonicalDecl()].push_back(Method);
      Bases.append(Bases[I]->overridden_methods().begin(), Bases[I]->overridden_methods().end());
    }
    // A method that overrides one declared elsewhere (a library's virtual
    // a library calls) has callers the unit does not show.
    if (llvm::any_of(Bases, [&](const CXXMethodDecl *Base) {
          return !SM.isInMainFile(SM.getExpansionLoc(Base->getLocation()));
        }))
      Escaping.insert(key(Method));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    CalleeNames.insert(Call->getCallee()->IgnoreParenImpCasts());
    note(Call->getDirectCallee(), *Call, /*Direct=*/true);
    // Not `Base::forward(x)`, which calls the base's own.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (const CXXMethodDecl *Method = Member->getMethodDecl();
          Method && Method->isVirtual() && !Enclosing.empty())
        if (const auto *Callee = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
            Callee && !Callee->hasQualifier())
          VirtualCalls.push_back(
              {Method->getCanonicalDecl(), CallIndex::CallSite{Enclosing.back(), Call, false}});
    // A container's forward calls the forwards of the modules put into it.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      ApiCall Api = Model.classifyCall(*Member);
      const ValueDecl *Container = moduleDecl(Member->getImplicitObjectArgument());
      if (Api.Kind == CallKind::ModuleInsert && Container)
        for (const Expr *Arg : Call->arguments())
          notePutInto(*Container, *Arg);
      if (Api.Kind == CallKind::ModuleForward && Container)
        for (const CXXRecordDecl *Held : Contents.lookup(Container))
          noteForward(Held, *Call);
    }
    // `model(x)` on a TORCH_MODULE holder calls its NetImpl's forward.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() >= 1) {
      noteForward(Model.userModule(Op->getArg(0)->getType()), *Call);
      if (const ValueDecl *Container = moduleDecl(Op->getArg(0)))
        for (const CXXRecordDecl *Held : Contents.lookup(Container))
          noteForward(Held, *Call);
    }
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

  bool VisitVarDecl(VarDecl *Var) {
    // `Sequential seq(model)`: made with the modules it holds.
    if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
            Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr);
        Construct && Model.libraryModule(Var->getType()))
      for (const Expr *Arg : Construct->arguments())
        notePutInto(*Var, *Arg);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    note(Construct->getConstructor(), *Construct, /*Direct=*/false);
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
        note(Ctor, Call, /*Direct=*/false);
  }

  void note(const FunctionDecl *Callee, const Expr &Call, bool Direct,
            const FunctionDecl *Caller = nullptr) {
    if (!Caller && !Enclosing.empty())
      Caller = Enclosing.back();
    if (!Callee || !Caller)
      return;
    Calls[key(Callee)].push_back({Caller, &Call, Direct});
    // A call of an instantiation calls the template's body as written too,
    // whose non-dependent calls are noted with it as their caller.
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
        Pattern && key(Pattern) != key(Callee))
      Calls[key(Pattern)].push_back({Caller, &Call, Direct});
  }

  // Call runs the forward of the user's module Impl.
  void noteForward(const CXXRecordDecl *Impl, const Expr &Call) {
    if (!Impl || !Impl->hasDefinition())
      return;
    for (const CXXMethodDecl *Method : Impl->getDefinition()->methods())
      if (Model.classifyMethod(*Method).Kind == CallKind::ModuleForward)
        note(Method, Call, /*Direct=*/false);
  }

  // The user's modules Arg puts into Container (`push_back(model)`,
  // `push_back(model.ptr())`, a name and a module).
  void notePutInto(const ValueDecl &Container, const Expr &Arg) {
    const Expr *E = Arg.IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() == 1)
      E = Construct->getArg(0)->IgnoreImplicit()->IgnoreParens(); // a copy, a conversion
    if (const auto *Handle = dyn_cast<CXXMemberCallExpr>(E);
        Handle && Model.classifyCall(*Handle).Kind == CallKind::ModuleHandle)
      E = Handle->getImplicitObjectArgument();
    if (const CXXRecordDecl *Impl = Model.userModule(E->getType()))
      Contents[&Container].push_back(Impl);
  }

  static constexpr unsigned kMaxOverridden = 8;

  CallSites &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  const ApiModel &Model;
  const SourceManager &SM;
  // Calls through virtual methods, by the method named.
  llvm::SmallVector<std::pair<const CXXMethodDecl *, CallIndex::CallSite>, 4> VirtualCalls;
  // The unit's overrides of each virtual method.
  llvm::DenseMap<const CXXMethodDecl *, llvm::SmallVector<const CXXMethodDecl *, 2>> Overrides;
  // The user's modules put into each container variable.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const CXXRecordDecl *, 2>> Contents;
  llvm::SmallVector<const FunctionDecl *, 4> Enclosing;
  // The callee expressions of calls: a function named there is called, not
  // taken.
  llvm::DenseSet<const Expr *> CalleeNames;
};

} // namespace

void CallIndex::build() {
  Built = true;
  const SourceManager &SM = Context.getSourceManager();
  CallIndexer Indexer(Calls, Escaping, Model, SM);
  for (Decl *D : Context.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Indexer.TraverseDecl(D);
  Indexer.noteVirtualCalls();
  for (const auto &[Callee, Sites] : Calls)
    for (const CallSite &Site : Sites)
      if (!llvm::is_contained(Callees[Site.Call], Callee))
        Callees[Site.Call].push_back(Callee);
}

llvm::ArrayRef<const FunctionDecl *> CallIndex::calleesOf(const Expr &Call) {
  if (!Built)
    build();
  auto It = Callees.find(&Call);
  return It == Callees.end() ? llvm::ArrayRef<const FunctionDecl *>() : llvm::ArrayRef(It->second);
}

llvm::ArrayRef<CallIndex::CallSite> CallIndex::callsOf(const FunctionDecl &Function) {
  if (!Built)
    build();
  auto It = Calls.find(key(&Function));
  return It == Calls.end() ? llvm::ArrayRef<CallSite>() : llvm::ArrayRef<CallSite>(It->second);
}

bool CallIndex::escapes(const FunctionDecl &Function) {
  if (!Built)
    build();
  return Escaping.contains(key(&Function));
}

} // namespace placelint::analysis
