#include "Syntax.h"

#include "placelint/analysis/ApiModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

const Stmt *findInTree(const Stmt *S, llvm::function_ref<bool(const Stmt &)> Matches) {
  if (!S)
    return nullptr;
  if (Matches(*S))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = findInTree(Child, Matches))
      return Found;
  return nullptr;
}

bool isMoveOfThis(const Stmt &S, const ApiModel &Model) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
  const Expr *Object = Call ? Call->getImplicitObjectArgument() : nullptr;
  return Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) &&
         Model.classifyCall(*Call).Kind == CallKind::ModuleTo;
}

const Expr *stripCopies(const Expr *E) {
  while (E) {
    const Expr *Inner = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner)) {
      if (Construct->getNumArgs() == 1 &&
          Construct->getConstructor()->isCopyOrMoveConstructor())
        Inner = Construct->getArg(0);
    } else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Inner)) {
      Inner = Cast->getSubExpr();
    } else if (const auto *Call = dyn_cast<CallExpr>(Inner)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Call->getNumArgs() == 1 && Callee && Callee->isInStdNamespace() &&
          ApiModel::stdFunction(*Callee).Kind == CallKind::StdMove)
        Inner = Call->getArg(0);
    }
    if (Inner == E)
      return E;
    E = Inner;
  }
  return E;
}

const ValueDecl *trackedDecl(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(Ref->getDecl()))
      return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()) &&
        isa<FieldDecl>(Member->getMemberDecl()))
      return Member->getMemberDecl();
  return nullptr;
}

const ValueDecl *rootDecl(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const ValueDecl *Tracked = trackedDecl(E))
      return Tracked;
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      E = Member->getBase();
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getNumArgs() >= 1 &&
        (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Arrow ||
         Op->getOperator() == OO_Star)) {
      E = Op->getArg(0);
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref) {
      E = Unary->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isStdCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee))
    return Method->getParent()->isInStdNamespace();
  return Callee && Callee->isInStdNamespace();
}

const ValueDecl *rootDeclThroughHolders(const Expr *E) {
  while (E) {
    if (const ValueDecl *Root = rootDecl(E))
      return Root;
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl()))
        return Binding->getDecomposedDecl();
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || !isStdCall(*Call))
      return nullptr;
    if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call))
      E = Method->getImplicitObjectArgument();
    else if (Call->getNumArgs() == 1)
      E = Call->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

const Expr *moduleOperand(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    if (Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() >= 1) {
      E = Op->getArg(0);
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E);
        Unary && Unary->getOpcode() == UO_Deref) {
      E = Unary->getSubExpr();
      continue;
    }
    return E;
  }
  return nullptr;
}

const ValueDecl *moduleDecl(const Expr *E) { return trackedDecl(moduleOperand(E)); }

const StringLiteral *stringLiteralIn(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Literal = dyn_cast<StringLiteral>(E))
      return Literal;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0)
      return nullptr;
    E = Construct->getArg(0);
  }
  return nullptr;
}

bool isDefaultArgument(const Expr *E) { return isa<CXXDefaultArgExpr>(E); }

bool isTrueOrDefault(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty() || isDefaultArgument(Args[0]))
    return true;
  const Expr *Flag = convertedValue(Args[0])->IgnoreParenImpCasts(); // optional<bool>(true)
  if (const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(Flag))
    return Literal->getValue();
  return false;
}

bool isWrittenFalse(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty() || isDefaultArgument(Args[0]))
    return false;
  const auto *Literal =
      dyn_cast<CXXBoolLiteralExpr>(convertedValue(Args[0])->IgnoreParenImpCasts());
  return Literal && !Literal->getValue();
}

unsigned explicitArgCount(const CallExpr &Call) {
  unsigned Count = 0;
  for (const Expr *Arg : Call.arguments())
    if (!isDefaultArgument(Arg))
      ++Count;
  return Count;
}

std::optional<llvm::SmallVector<const Expr *, 4>> listElements(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      llvm::SmallVector<const Expr *, 4> Elements(List->inits());
      return Elements;
    }
    if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = StdList->getSubExpr();
      continue;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      return std::nullopt;
    if (Construct->getNumArgs() == 0) { // `{}` value-initialising an ArrayRef
      if (Construct->isListInitialization())
        return llvm::SmallVector<const Expr *, 4>();
      return std::nullopt;
    }
    E = Construct->getArg(0);
  }
  return std::nullopt;
}

bool isEmptyList(const Expr *E) {
  std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(E);
  return Elements && Elements->empty();
}

const Expr *constructedFrom(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0 ||
        !llvm::all_of(llvm::drop_begin(Construct->arguments()),
                      [](const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); }))
      return E;
    E = Construct->getArg(0);
  }
}

const Expr *convertedValue(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() != 1 || Construct->isListInitialization())
      return E;
    E = Construct->getArg(0);
  }
}

const LambdaExpr *lambdaIn(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() != 1)
      return nullptr;
    E = Construct->getArg(0);
  }
  return nullptr;
}

} // namespace placelint::analysis
