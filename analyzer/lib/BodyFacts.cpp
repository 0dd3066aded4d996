#include "BodyFacts.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::analysis {

using namespace clang;

class BodyFacts::Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(BodyFacts &Facts) : Facts(Facts) {}

  bool TraverseForStmt(ForStmt *S) { return traverseLoop(S, [&] { return Base::TraverseForStmt(S); }); }
  bool TraverseWhileStmt(WhileStmt *S) { return traverseLoop(S, [&] { return Base::TraverseWhileStmt(S); }); }
  bool TraverseDoStmt(DoStmt *S) { return traverseLoop(S, [&] { return Base::TraverseDoStmt(S); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    return traverseLoop(S, [&] { return Base::TraverseCXXForRangeStmt(S); });
  }

  // A lambda's body is a function of its own, analysed separately.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    Facts.Lambdas.push_back(Lambda);
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef)
        Facts.Escaped.insert(Capture.getCapturedVar());
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (!Facts.MentionsApi && Facts.Model.classify(E->getType()) != ValueKind::Other)
      Facts.MentionsApi = true;
    return true;
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (!Loops.empty())
      Facts.LoopOfDecl[Var] = Loops.back();
    // `Tensor &alias = a;`: a changes whenever alias does.
    QualType Type = Var->getType();
    if (Type->isReferenceType() && !Type.getNonReferenceType().isConstQualified())
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
              Var->getInit() ? Var->getInit()->IgnoreParenImpCasts() : nullptr))
        Facts.Escaped.insert(Ref->getDecl());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->getOpcode() == UO_AddrOf)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Op->getSubExpr()->IgnoreParenImpCasts()))
        Facts.Escaped.insert(Ref->getDecl());
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (!Loops.empty() && isTensorMethod(*Call))
      Facts.LoopOfCall[Call] = Loops.back();
    return true;
  }

  // Statements whose value is discarded: the children of a block and the
  // branches and bodies of control statements.
  bool VisitCompoundStmt(CompoundStmt *Block) {
    for (Stmt *Child : Block->body())
      noteDiscarded(Child);
    return true;
  }
  bool VisitIfStmt(IfStmt *If) {
    noteDiscarded(If->getThen());
    noteDiscarded(If->getElse());
    return true;
  }
  bool VisitForStmt(ForStmt *S) { noteDiscarded(S->getBody()); return true; }
  bool VisitWhileStmt(WhileStmt *S) { noteDiscarded(S->getBody()); return true; }
  bool VisitDoStmt(DoStmt *S) { noteDiscarded(S->getBody()); return true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { noteDiscarded(S->getBody()); return true; }
  bool VisitSwitchCase(SwitchCase *S) { noteDiscarded(S->getSubStmt()); return true; }
  bool VisitLabelStmt(LabelStmt *S) { noteDiscarded(S->getSubStmt()); return true; }

private:
  using Base = RecursiveASTVisitor<Collector>;

  template <typename Traverse> bool traverseLoop(const Stmt *Loop, Traverse Body) {
    if (!Loops.empty())
      Facts.ParentLoop[Loop] = Loops.back();
    Loops.push_back(Loop);
    bool Continue = Body();
    Loops.pop_back();
    return Continue;
  }

  bool isTensorMethod(const CXXMemberCallExpr &Call) const {
    const Expr *Object = Call.getImplicitObjectArgument();
    return Object && Facts.Model.isTensor(Object->getType());
  }

  void noteDiscarded(const Stmt *S) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return;
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (!Call || !isTensorMethod(*Call) || !Call->getMethodDecl() ||
        !Call->getMethodDecl()->getIdentifier())
      return;
    if (ApiModel::classifyTensorMethod(Call->getMethodDecl()->getName()) ==
        CallKind::Transfer)
      Facts.DiscardedTransfers.push_back(Call);
  }

  BodyFacts &Facts;
  llvm::SmallVector<const Stmt *, 4> Loops;
};

BodyFacts::BodyFacts(const Stmt &Body, const ApiModel &Model) : Model(Model) {
  Collector(*this).TraverseStmt(const_cast<Stmt *>(&Body));
}

BodyFacts::~BodyFacts() = default;

const Stmt *BodyFacts::loopAround(const Expr &Call) const {
  return LoopOfCall.lookup(&Call);
}

bool BodyFacts::isDeclaredIn(const VarDecl &Var, const Stmt &Loop) const {
  for (const Stmt *L = LoopOfDecl.lookup(&Var); L; L = ParentLoop.lookup(L))
    if (L == &Loop)
      return true;
  return false;
}

namespace {

// Finds a change of one variable inside a loop: an assignment, ++/--, an
// in-place tensor operation (`add_`, which libtorch declares const), a move
// from it, or passing it by non-const reference to code outside the tensor
// API (the API never changes a Device or a tensor handle it is given).
class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  ChangeFinder(const VarDecl &Var, const ApiModel &Model) : Var(Var), Model(Model) {}

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
    if (Op->isAssignmentOp() && Op->getNumArgs() >= 1 && refersToVar(Op->getArg(0)))
      Found = true;
    return !Found;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && refersToVar(Call->getImplicitObjectArgument()) &&
        ((Method->getIdentifier() && Method->getName().ends_with("_")) ||
         (!Method->isConst() && !isApiClass(Method->getParent()))))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (Callee->isInStdNamespace() && Callee->getIdentifier() &&
        Callee->getName() == "move" && Call->getNumArgs() == 1 &&
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
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !isApiClass(Ctor->getParent()))
      checkArguments(*Ctor, llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
    return !Found;
  }

  bool Found = false;

private:
  bool refersToVar(const Expr *E) const {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
    return Ref && Ref->getDecl() == &Var;
  }
  bool isApiClass(const CXXRecordDecl *Record) const {
    return Record && Model.classify(QualType(Record->getTypeForDecl(), 0)) != ValueKind::Other;
  }
  bool isApiFunction(const FunctionDecl &Callee) const {
    if (Model.classifyFreeFunction(Callee) != CallKind::Unmodelled)
      return true;
    const auto *Method = dyn_cast<CXXMethodDecl>(&Callee);
    return Method && isApiClass(Method->getParent());
  }
  void checkArguments(const FunctionDecl &Callee, llvm::ArrayRef<Expr *> Args) {
    for (unsigned I = 0; I < Args.size() && I < Callee.getNumParams(); ++I) {
      QualType Param = Callee.getParamDecl(I)->getType();
      if (Param->isReferenceType() && !Param.getNonReferenceType().isConstQualified() &&
          refersToVar(Args[I]))
        Found = true;
    }
  }

  const VarDecl &Var;
  const ApiModel &Model;
};

} // namespace

bool BodyFacts::isChangedIn(const VarDecl &Var, const Stmt &Loop) {
  if (Escaped.contains(&Var))
    return true;
  auto [It, Inserted] = Changed.try_emplace({&Var, &Loop}, false);
  if (Inserted) {
    ChangeFinder Finder(Var, Model);
    Finder.TraverseStmt(const_cast<Stmt *>(&Loop));
    It->second = Finder.Found;
  }
  return It->second;
}

namespace {

class InvarianceChecker : public RecursiveASTVisitor<InvarianceChecker> {
public:
  InvarianceChecker(BodyFacts &Facts, const Stmt &Loop, const ApiModel &Model)
      : Facts(Facts), Loop(Loop), Model(Model) {}

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Facts.isDeclaredIn(*Var, Loop) || Facts.isChangedIn(*Var, Loop))
        Invariant = false;
    return Invariant;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    // Fields may be changed by any call in the loop.
    if (isa<FieldDecl>(Member->getMemberDecl()) &&
        !Model.isTensor(Member->getBase()->getType()))
      Invariant = false;
    return Invariant;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CXXOperatorCallExpr>(Call))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    bool Api = Callee && (Model.classifyFreeFunction(*Callee) != CallKind::Unmodelled ||
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
  BodyFacts &Facts;
  const Stmt &Loop;
  const ApiModel &Model;
};

} // namespace

bool BodyFacts::isInvariantIn(const Expr &E, const Stmt &Loop) {
  InvarianceChecker Checker(*this, Loop, Model);
  Checker.TraverseStmt(const_cast<Expr *>(&E));
  return Checker.Invariant;
}

} // namespace placelint::analysis
