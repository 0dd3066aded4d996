#include "BodyFacts.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace placelint::analysis {

using namespace clang;

class BodyFacts::Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(BodyFacts &Facts) : Facts(Facts) {}

  bool TraverseForStmt(ForStmt *S) {
    // `for (size_t i = 0; ...)`: i walks the indices of a container.
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(S->getInit()); Init && Init->isSingleDecl())
      if (const auto *Counter = dyn_cast<VarDecl>(Init->getSingleDecl());
          Counter && Counter->getInit())
        if (const auto *Zero = dyn_cast<IntegerLiteral>(Counter->getInit()->IgnoreParenImpCasts());
            Zero && Zero->getValue() == 0)
          Facts.CounterOfLoop[S] = Counter;
    return traverseLoop(S, [&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(WhileStmt *S) { return traverseLoop(S, [&] { return Base::TraverseWhileStmt(S); }); }
  bool TraverseDoStmt(DoStmt *S) {
    // `do { ... } while (false)` (a macro's body, a block to break out of)
    // runs once: it is no loop.
    const Expr *Condition = S->getCond()->IgnoreParenImpCasts();
    const auto *Flag = dyn_cast<CXXBoolLiteralExpr>(Condition);
    const auto *Number = dyn_cast<IntegerLiteral>(Condition);
    if ((Flag && !Flag->getValue()) || (Number && Number->getValue() == 0))
      return Base::TraverseDoStmt(S);
    return traverseLoop(S, [&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    if (S->getLoopVariable() && S->getRangeInit())
      Facts.RangeOfLoopVar[S->getLoopVariable()] = S->getRangeInit();
    return traverseLoop(S, [&] { return Base::TraverseCXXForRangeStmt(S); });
  }

  // A lambda's body is a function of its own, analysed separately.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    Facts.Lambdas.push_back(Lambda);
    // What it does runs where it is called: the body mentions the API when
    // the lambda does (`[&] { m = zeros({n}).to(*dev); }();` in a constructor).
    if (!Facts.MentionsApi)
      Facts.MentionsApi = findInTree(Lambda->getBody(), [&](const Stmt &S) {
        const auto *E = dyn_cast<Expr>(&S);
        return E && Facts.Model.classify(E->getType()) != ValueKind::Other;
      });
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef)
        ByReference.push_back({Capture.getCapturedVar(), Lambda});
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return true;
  }


  bool VisitVarDecl(VarDecl *Var) {
    if (!Loops.empty())
      Facts.LoopOfDecl[Var] = Loops.back();
    // A lambda kept in a local, alone or in a std::function (an aggregate's
    // field among them).
    if (const Expr *Init = Var->isLocalVarDecl() ? Var->getInit() : nullptr) {
      if (const LambdaExpr *Lambda = lambdaIn(Init))
        KeptIn[Lambda] = Var;
      else if (const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit()))
        for (const Expr *Field : List->inits())
          if (const LambdaExpr *Held = lambdaIn(Field))
            KeptIn[Held] = Var;
    }
    noteReference(*Var);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      Facts.Uses[Var].push_back(Ref);
      AllUses.push_back(Ref);
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      noteAssignment(Op->getLHS(), Op->getRHS());
    if (Op->getOpcode() == BO_Assign)
      noteReplacement(*Op, Op->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Call && Op->getNumArgs() >= 1) {
      const Expr *Callee = Op->getArg(0)->IgnoreImplicit()->IgnoreParens();
      if (const auto *Lambda = dyn_cast<LambdaExpr>(Callee))
        CalledInSight.insert(Lambda);
      while (const auto *Member = dyn_cast<MemberExpr>(Callee))
        Callee = Member->getBase()->IgnoreImplicit()->IgnoreParens();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
        Calls.insert(Ref);
    }
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      noteAssignment(Op->getArg(0), Op->getArg(1));
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      noteReplacement(*Op, Op->getArg(0));
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->getOpcode() == UO_AddrOf)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Op->getSubExpr()->IgnoreParenImpCasts()))
        Facts.Escaped.insert(&Facts.aliasRoot(*Ref->getDecl()));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // A non-generic lambda given to a std algorithm: the flow calls it
    // there (DeviceFlow::callBack).
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call) && Callee &&
        Callee->isInStdNamespace() &&
        Facts.Model.classifyCall(*Call).Kind == CallKind::Unmodelled)
      for (const Expr *Arg : Call->arguments())
        if (const LambdaExpr *Lambda = lambdaIn(Arg);
            Lambda && !Lambda->getLambdaClass()->isGenericLambda())
          CalledInSight.insert(Lambda);
    if (!Loops.empty()) {
      Facts.LoopOfAnyCall[Call] = Loops.back();
      if (PeriodicInLoop.back())
        Facts.Periodic.insert(Call);
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (!Loops.empty() && isTensorMethod(*Call)) {
      Facts.LoopOfCall[Call] = Loops.back();
      if (PeriodicInLoop.back())
        Facts.Periodic.insert(Call);
    }
    if (isMoveOfThis(*Call, Facts.Model))
      Facts.MovesThis = true;
    if (Facts.Model.classifyCall(*Call).Kind == CallKind::OptimizerStep)
      Facts.OptimizerLoops.insert(Loops.begin(), Loops.end());
    return true;
  }

  // What an optimizer is built from, it changes on every step().
  bool VisitExpr(Expr *E) {
    if (!Facts.MentionsApi && Facts.Model.classify(E->getType()) != ValueKind::Other)
      Facts.MentionsApi = true;
    if (isa<CXXConstructExpr, CallExpr>(E))
      if (std::optional<llvm::ArrayRef<const Expr *>> Args = Facts.Model.optimizerArguments(*E))
        for (const Expr *Arg : *Args)
          noteHeldByOptimizer(Arg);
    return true;
  }

  // `if (step % 100 == 0) { ... }`: what it guards runs every 100 iterations.
  bool TraverseIfStmt(IfStmt *If) {
    if (Loops.empty() || !takesRemainder(If->getCond()))
      return Base::TraverseIfStmt(If);
    if (!TraverseStmt(If->getInit()) || !TraverseStmt(If->getCond()))
      return false;
    bool Saved = PeriodicInLoop.back();
    PeriodicInLoop.back() = true;
    bool Continue = TraverseStmt(If->getThen()) && TraverseStmt(If->getElse());
    PeriodicInLoop.back() = Saved;
    return Continue;
  }

private:
  using Base = RecursiveASTVisitor<Collector>;

  template <typename Traverse> bool traverseLoop(const Stmt *Loop, Traverse Body) {
    if (!Loops.empty())
      Facts.ParentLoop[Loop] = Loops.back();
    Loops.push_back(Loop);
    PeriodicInLoop.push_back(false);
    bool Continue = Body();
    PeriodicInLoop.pop_back();
    Loops.pop_back();
    return Continue;
  }

  // `auto &r = x;`, `Tensor &h = state.hidden;`: a local reference is
  // another name for the place it binds. One bound to a choice of places
  // (`c ? a : b`) lets each escape when it may write them; one bound to a
  // temporary (`const auto &r = t.to(d);`) or to what a call returns is a
  // variable of its own.
  void noteReference(const VarDecl &Var) {
    QualType Type = Var.getType();
    if (!Type->isReferenceType() || !Var.hasLocalStorage() || isa<ParmVarDecl>(Var) ||
        !Var.getInit() || Facts.RangeOfLoopVar.count(&Var) || bindsTemporary(*Var.getInit()))
      return;
    const Expr *Init = Var.getInit()->IgnoreParenImpCasts();
    if (rootDecl(Init)) {
      Facts.Bound[&Var] = Init;
      return;
    }
    const auto *Choice = dyn_cast<AbstractConditionalOperator>(Init);
    if (!Choice || Type.getNonReferenceType().isConstQualified())
      return;
    for (const Expr *Arm : {Choice->getTrueExpr(), Choice->getFalseExpr()})
      if (const ValueDecl *Root = rootDecl(Arm))
        Facts.Escaped.insert(&Facts.aliasRoot(*Root));
  }

  static bool bindsTemporary(const Expr &Init) {
    for (const Expr *E = &Init; E;) {
      if (isa<MaterializeTemporaryExpr>(E))
        return true;
      if (const auto *Full = dyn_cast<FullExpr>(E))
        E = Full->getSubExpr();
      else if (const auto *Paren = dyn_cast<ParenExpr>(E))
        E = Paren->getSubExpr();
      else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
        E = Cast->getSubExpr();
      else
        return false;
    }
    return false;
  }

  // `v = e`, or `r = e` for `auto &r = v;`: from here on v holds another
  // value.
  void noteReplacement(const Expr &Assignment, const Expr *Target) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      Facts.Replaced.try_emplace(&Assignment, &Facts.namedVariable(*Ref->getDecl()));
  }

  void noteAssignment(const Expr *Target, const Expr *Value) {
    if (const ValueDecl *Var = trackedDecl(Target)) {
      Facts.Assignments[Var].push_back(Value);
      if (const ValueDecl *Named = &Facts.namedVariable(*Var); Named != Var)
        Facts.Assignments[Named].push_back(Value);
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      Facts.AssignedRefs.insert(Ref);
  }

  static bool takesRemainder(const Stmt *S) {
    return findInTree(S, [](const Stmt &Node) {
      const auto *Builtin = dyn_cast<BinaryOperator>(&Node);
      const auto *Overloaded = dyn_cast<CXXOperatorCallExpr>(&Node);
      return (Builtin && Builtin->getOpcode() == BO_Rem) ||
             (Overloaded && Overloaded->getOperator() == OO_Percent);
    });
  }

  void noteHeldByOptimizer(const Stmt *S) {
    if (!S)
      return;
    if (const ValueDecl *Var = trackedDecl(dyn_cast<Expr>(S)))
      Facts.HeldByOptimizer.insert(Var);
    for (const Stmt *Child : S->children())
      noteHeldByOptimizer(Child);
  }

  bool isTensorMethod(const CXXMemberCallExpr &Call) const {
    const Expr *Object = Call.getImplicitObjectArgument();
    return Object && Facts.Model.isTensor(Object->getType());
  }


public:
  // The references to variables in the body, in the order of the walk
  // (source order).
  llvm::ArrayRef<const DeclRefExpr *> uses() const { return AllUses; }
  // Variables a lambda captures by reference, and the lambda.
  llvm::ArrayRef<std::pair<const ValueDecl *, const LambdaExpr *>> capturedByReference() const {
    return ByReference;
  }
  // Whether the flow sees every call of Lambda, and so what it writes
  // through its captures at each (DeviceFlow::summaryCall): called where
  // it is made, given to a std algorithm, or kept in a local only called.
  bool callsInSight(const LambdaExpr &Lambda) const {
    if (CalledInSight.contains(&Lambda))
      return true;
    const VarDecl *Holder = KeptIn.lookup(&Lambda);
    return Holder && llvm::all_of(Facts.usesOf(*Holder),
                                  [&](const DeclRefExpr *Use) { return Calls.contains(Use); });
  }

private:
  llvm::SmallVector<std::pair<const ValueDecl *, const LambdaExpr *>, 2> ByReference;
  llvm::SmallPtrSet<const LambdaExpr *, 2> CalledInSight;
  llvm::DenseMap<const LambdaExpr *, const VarDecl *> KeptIn;
  // The uses of variables that are the callee of a call (`f()`, `task.run()`).
  llvm::SmallPtrSet<const DeclRefExpr *, 4> Calls;
  llvm::SmallVector<const DeclRefExpr *, 16> AllUses;

  BodyFacts &Facts;
  llvm::SmallVector<const Stmt *, 4> Loops;
  // Per loop: whether the walk is inside a periodic `if` of that loop.
  llvm::SmallVector<bool, 4> PeriodicInLoop;
};

BodyFacts::~BodyFacts() = default;

BodyFacts::BodyFacts(const Stmt &Body, const ApiModel &Model)
    : Mutations(Model), LoopFacts(Model, static_cast<Mutations &>(*this)), Body(Body),
      Model(Model) {
  Collector Walk(*this);
  Walk.TraverseStmt(const_cast<Stmt *>(&Body));
  for (const auto &[Call, Loop] : LoopOfCall)
    for (const Stmt *Outer = ParentLoop.lookup(Loop); Outer; Outer = ParentLoop.lookup(Outer))
      OuterLoops.insert(Outer);
  // A variable a lambda captures by reference escapes only if the lambda
  // may change it where the flow does not see it called; otherwise each
  // call of the lambda reads it as it is, and writes it back.
  for (const auto &[Var, Lambda] : Walk.capturedByReference())
    if (!Walk.callsInSight(*Lambda) && changesIn(*Var, *Lambda->getBody()))
      Escaped.insert(&aliasRoot(*Var));
  // A read through a reference reads the place it binds: each name of a
  // place is used wherever any of its names is. Binding a reference reads
  // nothing.
  if (Bound.empty())
    return;
  llvm::DenseSet<const Expr *> Bindings;
  for (const auto &[Reference, Place] : Bound)
    Bindings.insert(Place);
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const DeclRefExpr *, 4>> UsesOfPlace;
  for (const DeclRefExpr *Ref : Walk.uses())
    if (!Bindings.contains(Ref))
      UsesOfPlace[&aliasRoot(*Ref->getDecl())].push_back(Ref);
  for (auto &[Var, Refs] : Uses)
    Refs = UsesOfPlace[&aliasRoot(*Var)];
}

llvm::ArrayRef<const CXXMemberCallExpr *> BodyFacts::discardedTransfers() const {
  if (!DiscardedTransfers)
    DiscardedTransfers = findDiscardedTransfers(Body, Model);
  return *DiscardedTransfers;
}

const LambdaExpr *BodyFacts::lambdaOf(const CXXRecordDecl &Closure) const {
  for (const LambdaExpr *Lambda : Lambdas)
    if (Lambda->getLambdaClass() == &Closure)
      return Lambda;
  return nullptr;
}

} // namespace placelint::analysis
