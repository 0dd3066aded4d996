#include "CallIndex.h"

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
    CalleeNames.insert(Call->getCallee()->IgnoreParenImpCasts());
    note(Call->getDirectCallee(), *Call, /*Direct=*/true);
    // `model(x)` on a TORCH_MODULE holder calls its NetImpl's forward.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() >= 1)
      if (const CXXRecordDecl *Impl = Model.userModule(Op->getArg(0)->getType());
          Impl && Impl->hasDefinition())
        for (const CXXMethodDecl *Method : Impl->getDefinition()->methods())
          if (Model.classifyMethod(*Method).Kind == CallKind::ModuleForward)
            note(Method, *Call, /*Direct=*/false);
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

  void note(const FunctionDecl *Callee, const Expr &Call, bool Direct) {
    if (Callee && !Enclosing.empty())
      Calls[key(Callee)].push_back({Enclosing.back(), &Call, Direct});
  }

  CallSites &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  const ApiModel &Model;
  llvm::SmallVector<const FunctionDecl *, 4> Enclosing;
  // The callee expressions of calls: a function named there is called, not
  // taken.
  llvm::DenseSet<const Expr *> CalleeNames;
};

} // namespace

void CallIndex::build() {
  Built = true;
  CallIndexer Indexer(Calls, Escaping, Model);
  const SourceManager &SM = Context.getSourceManager();
  for (Decl *D : Context.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Indexer.TraverseDecl(D);
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
