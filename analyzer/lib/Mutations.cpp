#include "Mutations.h"

#include "Syntax.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/LambdaCapture.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Finds a change of one variable in a statement: an assignment, ++/--, an
// in-place tensor operation (`add_`, which libtorch declares const), a move
// from it, passing it by non-const reference to code outside the tensor
// API (the API never changes a Device or a tensor handle it is given) that
// may change it, or
// writing its elements through a range-for's non-const reference. A local
// reference to Var's place is Var (Aliases.aliasRoot).
class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  // Depth: how many calls of the program's functions deep this search is
  // (a non-const reference parameter is followed into the callee's body).
  ChangeFinder(const ValueDecl &Var, const ApiModel &Model, const Mutations &Aliases,
               unsigned Depth = 0)
      : Var(Aliases.aliasRoot(Var)), Model(Model), Aliases(Aliases), Depth(Depth) {}

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp() && refersToVar(Op->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() && refersToVar(Op->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    // `++it` advances an iterator even when its class is the API's own.
    bool Steps = Op->getOperator() == OO_PlusPlus || Op->getOperator() == OO_MinusMinus;
    if ((Op->isAssignmentOp() || Steps) && Op->getNumArgs() >= 1 && refersToVar(Op->getArg(0)))
      Found = true;
    return !Found;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    bool ChangesObject = Method && (Model.classifyCall(*Call).InPlace ||
                                    (!Method->isConst() && !isApiClass(Method->getParent())));
    if (ChangesObject && refersToVar(Object))
      Found = true;
    // A non-const method of `this` may change any of its fields.
    if (Method && !Method->isConst() && isa<FieldDecl>(Var) && Object &&
        isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !isApiClass(Method->getParent()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (Model.classifyCall(*Call).Kind == CallKind::StdMove && Call->getNumArgs() == 1 &&
        refersToVar(Call->getArg(0))) {
      Found = true;
      return false;
    }
    if (isApiFunction(*Callee))
      return true;
    unsigned ArgOffset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    checkArguments(*Callee, llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()).drop_front(ArgOffset));
    return !Found;
  }
  // `for (auto &t : v) t = ...` changes v.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
    const VarDecl *Element = Loop->getLoopVariable();
    QualType Type = Element ? Element->getType() : QualType();
    if (Element && refersToVar(Loop->getRangeInit()) && Type->isReferenceType() &&
        !Type.getNonReferenceType().isConstQualified()) {
      ChangeFinder ElementChanges(*Element, Model, Aliases, Depth);
      ElementChanges.TraverseStmt(Loop->getBody());
      Found = ElementChanges.Found;
    }
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !isApiClass(Ctor->getParent()))
      checkArguments(*Ctor, llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
    return !Found;
  }

  bool Found = false;

private:
  // E names Var or a part of it (`batch.images`, `v[i]`), or a reference
  // to one.
  bool refersToVar(const Expr *E) const {
    const ValueDecl *Root = E ? rootDecl(E) : nullptr;
    return Root && &Aliases.aliasRoot(*Root) == &Var;
  }
  bool isApiClass(const CXXRecordDecl *Record) const {
    return Record && Model.classify(QualType(Record->getTypeForDecl(), 0)) != ValueKind::Other;
  }
  bool isApiFunction(const FunctionDecl &Callee) const {
    if (Model.classifyFunction(Callee).isModelled())
      return true;
    const auto *Method = dyn_cast<CXXMethodDecl>(&Callee);
    return Method && isApiClass(Method->getParent());
  }
  void checkArguments(const FunctionDecl &Callee, llvm::ArrayRef<Expr *> Args) {
    for (unsigned I = 0; I < Args.size() && I < Callee.getNumParams(); ++I) {
      QualType Param = Callee.getParamDecl(I)->getType();
      if (Param->isReferenceType() && !Param.getNonReferenceType().isConstQualified() &&
          refersToVar(Args[I]) && parameterMayChange(Callee, I))
        Found = true;
    }
  }

  // Whether the callee may change what its I-th parameter refers to: unknown
  // without a body of the program's own (a library's, or too deep); else its
  // body changes the parameter, or hands it on where this search cannot
  // follow (a non-const reference or pointer to it, a lambda capturing it
  // by reference).
  bool parameterMayChange(const FunctionDecl &Callee, unsigned I) const {
    const FunctionDecl *Definition = nullptr;
    if (Depth >= kMaxCallDepth || !Callee.hasBody(Definition) || I >= Definition->getNumParams())
      return true;
    const SourceManager &SM = Definition->getASTContext().getSourceManager();
    if (SM.isInSystemHeader(SM.getExpansionLoc(Definition->getLocation())))
      return true;
    const ParmVarDecl &Parameter = *Definition->getParamDecl(I);
    const Stmt *Body = Definition->getBody();
    if (handsOn(Parameter, *Body))
      return true;
    Mutations Unaliased(Model);
    ChangeFinder Inner(Parameter, Model, Unaliased, Depth + 1);
    Inner.TraverseStmt(const_cast<Stmt *>(Body));
    return Inner.Found;
  }

  static bool handsOn(const ParmVarDecl &Parameter, const Stmt &Body) {
    auto Names = [&](const Expr *E) { return E && rootDecl(E) == &Parameter; };
    return findInTree(&Body, [&](const Stmt &S) {
             if (const auto *Address = dyn_cast<UnaryOperator>(&S))
               return Address->getOpcode() == UO_AddrOf && Names(Address->getSubExpr());
             if (const auto *Declaration = dyn_cast<DeclStmt>(&S))
               return llvm::any_of(Declaration->decls(), [&](const Decl *D) {
                 const auto *Reference = dyn_cast<VarDecl>(D);
                 return Reference && Reference->getType()->isReferenceType() &&
                        !Reference->getType().getNonReferenceType().isConstQualified() &&
                        Names(Reference->getInit());
               });
             if (const auto *Return = dyn_cast<ReturnStmt>(&S))
               return Return->getRetValue() && Return->getRetValue()->isLValue() &&
                      Names(Return->getRetValue());
             if (const auto *Lambda = dyn_cast<LambdaExpr>(&S))
               return llvm::any_of(Lambda->captures(), [&](const LambdaCapture &Capture) {
                 return Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef &&
                        Capture.getCapturedVar() == &Parameter;
               });
             return false;
           }) != nullptr;
  }

  static constexpr unsigned kMaxCallDepth = 3;
  const ValueDecl &Var;
  const ApiModel &Model;
  const Mutations &Aliases;
  unsigned Depth;
};

} // namespace

const ValueDecl &Mutations::aliasRoot(const ValueDecl &Var) const {
  const ValueDecl *Root = &Var;
  // A chain of references is as long as the body wrote it; the bound guards
  // against `auto &r = r;`, which compiles.
  for (unsigned Step = 0; Step < 16; ++Step) {
    const auto *Reference = dyn_cast<VarDecl>(Root);
    const Expr *Place = Reference ? Bound.lookup(Reference) : nullptr;
    const ValueDecl *Next = Place ? rootDecl(Place) : nullptr;
    if (!Next || Next == Root)
      break;
    Root = Next;
  }
  return *Root;
}

const ValueDecl &Mutations::namedVariable(const ValueDecl &Var) const {
  const ValueDecl *Named = &Var;
  for (unsigned Step = 0; Step < 16; ++Step) {
    const auto *Reference = dyn_cast<VarDecl>(Named);
    const auto *Whole =
        Reference ? dyn_cast_or_null<DeclRefExpr>(Bound.lookup(Reference)) : nullptr;
    if (!Whole || Whole->getDecl() == Named)
      break;
    Named = Whole->getDecl();
  }
  return *Named;
}

bool Mutations::changesIn(const ValueDecl &Var, const Stmt &Scope) const {
  ChangeFinder Finder(Var, Model, *this);
  Finder.TraverseStmt(const_cast<Stmt *>(&Scope));
  return Finder.Found;
}

} // namespace placelint::analysis
