#include "LoopFacts.h"

#include "Syntax.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::analysis {

using namespace clang;

bool LoopFacts::isDeclaredIn(const VarDecl &Var, const Stmt &Loop) const {
  for (const Stmt *L = LoopOfDecl.lookup(&Var); L; L = ParentLoop.lookup(L))
    if (L == &Loop)
      return true;
  return false;
}

bool LoopFacts::isChangedIn(const ValueDecl &Var, const Stmt &Loop) {
  if (Changes.isEscaped(Var) ||
      (HeldByOptimizer.contains(&Var) && OptimizerLoops.contains(&Loop)))
    return true;
  auto [It, Inserted] = Changed.try_emplace({&Var, &Loop}, false);
  if (Inserted)
    It->second = Changes.changesIn(Var, Loop);
  return It->second;
}

namespace {

class InvarianceChecker : public RecursiveASTVisitor<InvarianceChecker> {
public:
  InvarianceChecker(LoopFacts &Facts, const Stmt &Loop, const ApiModel &Model)
      : Facts(Facts), Loop(Loop), Model(Model) {}

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    // A structured binding is a part of the variable it decomposes.
    const ValueDecl *Named = Ref->getDecl();
    if (const auto *Binding = dyn_cast<BindingDecl>(Named))
      Named = Binding->getDecomposedDecl();
    if (const auto *Var = dyn_cast_or_null<VarDecl>(Named))
      if (!Facts.isUnchangedIn(*Var, Loop))
        Invariant = false;
    return Invariant;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (const ValueDecl *Field = trackedDecl(Member)) {
      if (Facts.isChangedIn(*Field, Loop))
        Invariant = false;
    } else if (isa<FieldDecl>(Member->getMemberDecl()) &&
               !Model.isTensor(Member->getBase()->getType())) {
      // A field of a local struct changes with it; of another object, with
      // any call.
      const auto *Local = dyn_cast_or_null<VarDecl>(rootDecl(Member));
      if (!Local || !Local->hasLocalStorage() || Facts.isChangedIn(*Local, Loop))
        Invariant = false;
    }
    return Invariant;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CXXOperatorCallExpr>(Call))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    bool Api = Callee && (Model.classifyFunction(*Callee).isModelled() ||
                          (isa<CXXMemberCallExpr>(Call) &&
                           Model.classify(cast<CXXMemberCallExpr>(Call)
                                              ->getImplicitObjectArgument()
                                              ->getType()) != ValueKind::Other));
    if (!Api)
      Invariant = false;
    return Invariant;
  }

  bool Invariant = true;

private:
  LoopFacts &Facts;
  const Stmt &Loop;
  const ApiModel &Model;
};

} // namespace

namespace {

// Whether an initializer only rearranges values it is given: copies,
// references, holders built by std (a container, pair, tuple, optional,
// smart pointer) and reads from them. Anything it calls outside std (a
// factory, an op, a helper) makes a new value on each iteration.
class HolderOnly : public RecursiveASTVisitor<HolderOnly> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    Rearranges &= isStdCall(*Call);
    return Rearranges;
  }
  bool VisitLambdaExpr(LambdaExpr *) {
    Rearranges = false;
    return false;
  }
  bool Rearranges = true;
};

} // namespace

bool LoopFacts::holdsInvariantValue(const VarDecl &Var, const Stmt &Loop) {
  auto [It, Inserted] = LoopLocalInvariant.try_emplace({&Var, &Loop}, false);
  if (!Inserted)
    return It->second;
  const Expr *Init = Var.getInit();
  if (!Init || RangeOfLoopVar.contains(&Var) || isChangedIn(Var, Loop))
    return false;
  HolderOnly Holder;
  Holder.TraverseStmt(const_cast<Expr *>(Init));
  // Looked up again: the recursion into the initializer may have grown the map.
  bool Invariant = Holder.Rearranges && isInvariantIn(*Init, Loop);
  LoopLocalInvariant[{&Var, &Loop}] = Invariant;
  return Invariant;
}

bool LoopFacts::isUnchangedIn(const VarDecl &Var, const Stmt &Loop) {
  return !isChangedIn(Var, Loop) && (!isDeclaredIn(Var, Loop) || holdsInvariantValue(Var, Loop));
}

bool LoopFacts::isInvariantIn(const Expr &E, const Stmt &Loop) {
  InvarianceChecker Checker(*this, Loop, Model);
  Checker.TraverseStmt(const_cast<Expr *>(&E));
  return Checker.Invariant;
}

bool LoopFacts::isZeroBasedCounter(const Expr *Index) const {
  const auto *Ref = Index ? dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()) : nullptr;
  return Ref && llvm::any_of(CounterOfLoop, [&](const auto &Entry) {
           return Entry.second == Ref->getDecl();
         });
}

llvm::ArrayRef<const ValueDecl *> LoopFacts::elementsWrittenBy(const Stmt &Loop) {
  auto [It, Inserted] = ElementWrites.try_emplace(&Loop);
  if (!Inserted)
    return It->second;
  llvm::SmallVector<const ValueDecl *, 1> &Written = It->second;
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(&Loop)) {
    const VarDecl *Element = RangeFor->getLoopVariable();
    const ValueDecl *Container = trackedDecl(stripCopies(RangeFor->getRangeInit()));
    QualType Type = Element ? Element->getType() : QualType();
    if (Container && Type->isReferenceType() &&
        !Type.getNonReferenceType().isConstQualified()) {
      if (Changes.changesIn(*Element, *RangeFor->getBody()))
        Written.push_back(Container);
    }
    return Written;
  }
  // `v[i] = ...` with the loop's own counter from 0.
  const VarDecl *Counter = CounterOfLoop.lookup(&Loop);
  if (!Counter)
    return Written;
  findInTree(&Loop, [&](const Stmt &S) {
    const auto *Assign = dyn_cast<CXXOperatorCallExpr>(&S);
    if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
      return false;
    const auto *Element =
        dyn_cast<CXXOperatorCallExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
    if (!Element || Element->getOperator() != OO_Subscript || Element->getNumArgs() != 2 ||
        Model.classify(Element->getArg(0)->getType()) != ValueKind::TensorList ||
        !isZeroBasedCounter(Element->getArg(1)))
      return false;
    if (const ValueDecl *Container = trackedDecl(Element->getArg(0)))
      if (!llvm::is_contained(Written, Container))
        Written.push_back(Container);
    return false;
  });
  return Written;
}

} // namespace placelint::analysis
