#include "BodyFacts.h"

#include "FunctionSequence.h"
#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

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
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef)
        ByReference.push_back({Capture.getCapturedVar(), Lambda->getBody()});
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
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

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      Facts.Uses[Var].push_back(Ref);
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
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      noteAssignment(Op->getArg(0), Op->getArg(1));
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      noteReplacement(*Op, Op->getArg(0));
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->getOpcode() == UO_AddrOf)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Op->getSubExpr()->IgnoreParenImpCasts()))
        Facts.Escaped.insert(Ref->getDecl());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
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
    return Continue && VisitIfStmt(If);
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
    PeriodicInLoop.push_back(false);
    bool Continue = Body();
    PeriodicInLoop.pop_back();
    Loops.pop_back();
    return Continue;
  }

  // `v = e`: from here on v holds another value.
  void noteReplacement(const Expr &Assignment, const Expr *Target) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      Facts.Replaced.try_emplace(&Assignment, Ref->getDecl());
  }

  void noteAssignment(const Expr *Target, const Expr *Value) {
    if (const ValueDecl *Var = trackedDecl(Target))
      Facts.Assignments[Var].push_back(Value);
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

  void noteDiscarded(const Stmt *S) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return;
    // A tensor's to/cuda/cpu, or a batch type's own (`batch.to(device);`).
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (Call && Call->getMethodDecl() && Call->getMethodDecl()->getIdentifier() &&
        Facts.Model.classifyCall(*Call).Kind == CallKind::Transfer)
      Facts.DiscardedTransfers.push_back(Call);
  }

public:
  // Variables a lambda captures by reference, and its body.
  llvm::ArrayRef<std::pair<const ValueDecl *, const Stmt *>> capturedByReference() const {
    return ByReference;
  }

private:
  llvm::SmallVector<std::pair<const ValueDecl *, const Stmt *>, 2> ByReference;

  BodyFacts &Facts;
  llvm::SmallVector<const Stmt *, 4> Loops;
  // Per loop: whether the walk is inside a periodic `if` of that loop.
  llvm::SmallVector<bool, 4> PeriodicInLoop;
};

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
  ChangeFinder(const ValueDecl &Var, const ApiModel &Model) : Var(Var), Model(Model) {}

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
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !isApiClass(Ctor->getParent()))
      checkArguments(*Ctor, llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
    return !Found;
  }

  bool Found = false;

private:
  // E names Var or a part of it (`batch.images`, `v[i]`).
  bool refersToVar(const Expr *E) const { return E && rootDecl(E) == &Var; }
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
          refersToVar(Args[I]))
        Found = true;
    }
  }

  const ValueDecl &Var;
  const ApiModel &Model;
};

} // namespace

bool BodyFacts::isChangedIn(const ValueDecl &Var, const Stmt &Loop) {
  if (Escaped.contains(&Var) || (HeldByOptimizer.contains(&Var) && OptimizerLoops.contains(&Loop)))
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
  BodyFacts &Facts;
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

bool BodyFacts::holdsInvariantValue(const VarDecl &Var, const Stmt &Loop) {
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

bool BodyFacts::isUnchangedIn(const VarDecl &Var, const Stmt &Loop) {
  return !isChangedIn(Var, Loop) && (!isDeclaredIn(Var, Loop) || holdsInvariantValue(Var, Loop));
}

bool BodyFacts::isInvariantIn(const Expr &E, const Stmt &Loop) {
  InvarianceChecker Checker(*this, Loop, Model);
  Checker.TraverseStmt(const_cast<Expr *>(&E));
  return Checker.Invariant;
}

BodyFacts::BodyFacts(const Stmt &Body, const ApiModel &Model) : Model(Model) {
  Collector Walk(*this);
  Walk.TraverseStmt(const_cast<Stmt *>(&Body));
  for (const auto &[Call, Loop] : LoopOfCall)
    for (const Stmt *Outer = ParentLoop.lookup(Loop); Outer; Outer = ParentLoop.lookup(Outer))
      OuterLoops.insert(Outer);
  // A variable a lambda captures by reference escapes only if the lambda
  // may change it; otherwise each call of the lambda reads it as it is.
  for (const auto &[Var, LambdaBody] : Walk.capturedByReference()) {
    ChangeFinder Finder(*Var, Model);
    Finder.TraverseStmt(const_cast<Stmt *>(LambdaBody));
    if (Finder.Found)
      Escaped.insert(Var);
  }
}

bool BodyFacts::isZeroBasedCounter(const Expr *Index) const {
  const auto *Ref = Index ? dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()) : nullptr;
  return Ref && llvm::any_of(CounterOfLoop, [&](const auto &Entry) {
           return Entry.second == Ref->getDecl();
         });
}

const LambdaExpr *BodyFacts::lambdaOf(const CXXRecordDecl &Closure) const {
  for (const LambdaExpr *Lambda : Lambdas)
    if (Lambda->getLambdaClass() == &Closure)
      return Lambda;
  return nullptr;
}

llvm::ArrayRef<const ValueDecl *> BodyFacts::elementsWrittenBy(const Stmt &Loop) {
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
      ChangeFinder Finder(*Element, Model);
      Finder.TraverseStmt(const_cast<Stmt *>(RangeFor->getBody()));
      if (Finder.Found)
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

bool BodyFacts::isReadAfter(const VarDecl &Var, const Expr &E,
                            const FunctionSequence &Sequence) const {
  // Past a new value given to Var, what is read is that value.
  auto NewValue = [&](const Stmt &S) { return givesNewValue(Var, S, Sequence); };
  return llvm::any_of(usesOf(Var), [&](const DeclRefExpr *Use) {
    return !isAssignmentTarget(*Use) && Sequence.reaches(E, *Use, NewValue);
  });
}

bool BodyFacts::givesNewValue(const VarDecl &Var, const Stmt &S,
                              const FunctionSequence &Sequence) const {
  return replaces(S) == &Var || Sequence.declarationOf(Var) == &S;
}

} // namespace placelint::analysis
