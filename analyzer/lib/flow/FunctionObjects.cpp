// Function objects of namespace std (std::function): the lambda a function
// stores in one, found by where it is stored (a variable's initializer, a
// field of an aggregate's initializer list, an assignment), so that calling
// the object calls that lambda. A place that is given two lambdas, or
// anything else, has no known target.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::analysis {

using namespace clang;

namespace {


// A class of namespace std that is no lambda itself: what holds a lambda
// when one is stored in it.
bool isStdFunctionObject(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && !Record->isLambda() && Record->isInStdNamespace();
}

class LambdaStores : public RecursiveASTVisitor<LambdaStores> {
public:
  using Found = std::function<void(AccessPath, const LambdaExpr *)>;
  LambdaStores(Found Store, std::function<std::optional<AccessPath>(const Expr *)> PathOf)
      : Store(std::move(Store)), PathOf(std::move(PathOf)) {}

  bool shouldVisitLambdaBody() const { return false; }

  bool VisitVarDecl(VarDecl *Var) {
    const Expr *Init = Var->getInit();
    if (!Init)
      return true;
    if (isStdFunctionObject(Var->getType())) {
      Store(AccessPath(Var), lambdaIn(Init));
      return true;
    }
    // `Task task{[&] { ... }}`: the fields of an aggregate, in order.
    const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit());
    const CXXRecordDecl *Record = Var->getType()->getAsCXXRecordDecl();
    if (!List || !Record || Record->isLambda())
      return true;
    unsigned Index = 0;
    for (const FieldDecl *Field : Record->fields()) {
      if (Index >= List->getNumInits())
        break;
      const Expr *Value = List->getInit(Index++);
      if (isStdFunctionObject(Field->getType()))
        if (std::optional<AccessPath> Path = AccessPath(Var).child(AccessStep::field(Field)))
          Store(*Path, lambdaIn(Value));
    }
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        isStdFunctionObject(Op->getArg(0)->getType()))
      if (std::optional<AccessPath> Path = PathOf(Op->getArg(0)))
        Store(*Path, lambdaIn(Op->getArg(1)));
    return true;
  }

  void found(AccessPath Path, const LambdaExpr *Lambda) { Store(std::move(Path), Lambda); }

private:
  Found Store;
  std::function<std::optional<AccessPath>(const Expr *)> PathOf;
};

} // namespace

const LambdaExpr *DeviceFlow::functionTarget(const Expr &Callable) {
  if (!FunctionTargets) {
    FunctionTargets.emplace();
    auto PathOf = [&](const Expr *E) -> std::optional<AccessPath> {
      std::optional<Place> Where = placeOf(E);
      return Where && !Where->OneElement ? std::optional(Where->Path) : std::nullopt;
    };
    // A place stored twice, or given something else than a lambda, keeps
    // null: its target is not known.
    LambdaStores Walk(
        [&](AccessPath Path, const LambdaExpr *Lambda) {
          auto [It, Inserted] = FunctionTargets->try_emplace(Path, Lambda);
          if (!Inserted && It->second != Lambda)
            It->second = nullptr;
        },
        PathOf);
    if (const Stmt *Body = Facts.function().getBody())
      Walk.TraverseStmt(const_cast<Stmt *>(Body));
    // In a method, a field of the object (a hook, a callback) is also given
    // its lambda by the class's other methods and constructors: in their
    // bodies and member initializers.
    const auto *Method = dyn_cast<CXXMethodDecl>(&Facts.function());
    const CXXRecordDecl *Class = Method && !Method->isStatic() && !Method->getParent()->isLambda()
                                     ? Method->getParent()
                                     : nullptr;
    llvm::SmallVector<const CXXMethodDecl *, 8> Others;
    if (Class)
      Others.append(Class->method_begin(), Class->method_end());
    for (const CXXMethodDecl *Other : Others) {
      if (Other == Method || !Other->hasBody())
        continue;
      if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Other))
        for (const CXXCtorInitializer *Init : Constructor->inits())
          if (const FieldDecl *Field = Init->getMember();
              Field && Init->isWritten() && isStdFunctionObject(Field->getType()))
            Walk.found(AccessPath(Field), lambdaIn(Init->getInit()));
      Walk.TraverseStmt(Other->getBody());
    }
  }
  std::optional<Place> Where = placeOf(&Callable);
  if (!Where || Where->OneElement)
    return nullptr;
  return FunctionTargets->lookup(Where->Path);
}

} // namespace placelint::analysis
