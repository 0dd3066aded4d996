// placement-pageable-non-blocking: a non_blocking copy to a device
// (`x.to(device, /*non_blocking=*/true)`, `d.copy_(x, true)`) from host
// memory known not to be pinned: the driver stages it synchronously, so the
// copy overlaps nothing (docs/rules/placement-pageable-non-blocking.md).
// Known pageable: made here on the host by a factory that asked for no
// pinned memory, by an operation (every op allocates ordinary memory), by a
// blocking download, or by from_blob over memory the program allocated the
// ordinary way (a std::vector's data(), an array, new[]). A tensor of
// unknown origin (a parameter, a loader's batch) may be pinned and is not
// reported.
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// How far provenance is followed back (views of views, pointers to pointers).
constexpr unsigned kMaxChain = 8;

bool onHostOnly(const DeviceSet &Devices) {
  std::optional<AbstractDevice> Single = Devices.single();
  return Single && Single->isCpu();
}

// Whether Factory is the whole initializer of the local that Source names,
// so that `.pin_memory()` after it pins that local.
bool initializesSource(const Expr &Source, const CallExpr &Factory) {
  const auto *Ref = dyn_cast<DeclRefExpr>(stripCopies(&Source)->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->isLocalVarDecl() && Var->getInit() &&
         stripCopies(Var->getInit())->IgnoreParenImpCasts() == &Factory;
}

// Where Pointer addresses host memory the program allocated the ordinary
// way, which no allocator pinned: a std container's elements
// (`frame.data()`, `&frame[0]`, with the default allocator), an array, a
// `new[]`, or a local pointer that only ever held one of these. Gives the
// variable that owns that memory (null for a `new[]`), or nullopt when the
// memory may be pinned (a pointer from a parameter, from cudaHostAlloc).
std::optional<const ValueDecl *> pageableBuffer(const Expr *Pointer, const BodyFacts &Body,
                                                unsigned Depth = 0) {
  if (Depth >= kMaxChain)
    return std::nullopt;
  const Expr *E = Pointer->IgnoreParenCasts();
  // `frame.data() + offset`: the same memory.
  if (const auto *Sum = dyn_cast<BinaryOperator>(E); Sum && Sum->isAdditiveOp())
    return pageableBuffer(Sum->getLHS()->getType()->isPointerType() ? Sum->getLHS() : Sum->getRHS(),
                          Body, Depth + 1);
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return New->getNumPlacementArgs() == 0 ? std::optional<const ValueDecl *>(nullptr)
                                           : std::nullopt;
  const Expr *Container = nullptr;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
      Call && Call->getMethodDecl() && ApiModel::givesBufferAddress(*Call->getMethodDecl()))
    Container = Call->getImplicitObjectArgument();
  if (const auto *Address = dyn_cast<UnaryOperator>(E); Address && Address->getOpcode() == UO_AddrOf) {
    const Expr *Element = Address->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Element))
      return pageableBuffer(Subscript->getBase(), Body, Depth + 1);
    if (const auto *Indexed = dyn_cast<CXXOperatorCallExpr>(Element);
        Indexed && Indexed->getOperator() == OO_Subscript &&
        ApiModel::ownsPageableMemory(Indexed->getArg(0)->getType()))
      Container = Indexed->getArg(0);
  }
  if (Container) {
    const ValueDecl *Owner = rootDecl(Container);
    return Owner ? std::optional(Owner) : std::nullopt;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var))
    return std::nullopt;
  if (Var->getType()->isArrayType())
    return Var;
  if (Var->isLocalVarDecl() && Var->getType()->isPointerType() && Var->getInit() &&
      Body.assignmentsTo(*Var).empty() && !Body.isEscaped(*Var))
    return pageableBuffer(Var->getInit(), Body, Depth + 1);
  return std::nullopt;
}

// Whether the program page-locks Owner's memory (`cudaHostRegister(
// frame.data(), ...)`) where this can see it: in the function, or for a
// member, in any method of its class.
bool registeredAsPinned(const ValueDecl &Owner, const FunctionFacts &Facts) {
  auto Registers = [&](const Stmt &S) {
    const auto *Call = dyn_cast<CallExpr>(&S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !ApiModel::pinsHostMemory(*Callee) || Call->getNumArgs() == 0)
      return false;
    std::optional<const ValueDecl *> Registered = pageableBuffer(Call->getArg(0), Facts.body());
    return Registered && *Registered == &Owner;
  };
  if (const auto *Field = dyn_cast<FieldDecl>(&Owner))
    return llvm::any_of(Field->getParent()->decls(), [&](const Decl *Member) {
      const auto *Method = dyn_cast<FunctionDecl>(Member);
      const auto *Template = dyn_cast<FunctionTemplateDecl>(Member);
      if (Template)
        Method = Template->getTemplatedDecl();
      return Method && Method->hasBody() && findInTree(Method->getBody(), Registers);
    });
  return findInTree(Facts.function().getBody(), Registers);
}

// Whether a conversion's first argument is a constant the code names
// (an enumerator, or a constexpr variable of an enumeration type).
bool namesConstantDtype(const CXXMemberCallExpr &Conversion) {
  const auto *Ref = Conversion.getNumArgs()
                        ? dyn_cast<DeclRefExpr>(Conversion.getArg(0)->IgnoreParenImpCasts())
                        : nullptr;
  if (!Ref)
    return false;
  if (isa<EnumConstantDecl>(Ref->getDecl()))
    return true;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  return Var && Var->isConstexpr() && Var->getType()->isEnumeralType();
}

// The value a call of a lambda of the function gives back when its body
// returns one variable it captured: that variable as the lambda captured it
// (by copy), or, by reference, as the function initialised it when nothing
// assigns it later. Null otherwise (a std::function, a computed result).
const ValueFact *returnedCapture(const FunctionFacts &Facts, const CXXOperatorCallExpr &Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  const LambdaExpr *Lambda =
      Method && Method->getParent()->isLambda() ? Facts.body().lambdaOf(*Method->getParent())
                                                : nullptr;
  const EntryFacts *Captured = Lambda ? Facts.capturesOf(*Lambda) : nullptr;
  if (!Captured || !Method->hasBody())
    return nullptr;
  // Every return of the body returns the same variable.
  const VarDecl *Returned = nullptr;
  bool Other = false;
  findInTree(Method->getBody(), [&](const Stmt &S) {
    const auto *Return = dyn_cast<ReturnStmt>(&S);
    if (!Return)
      return false;
    const Expr *Value = Return->getRetValue();
    const auto *Ref =
        Value ? dyn_cast<DeclRefExpr>(stripCopies(Value)->IgnoreParenImpCasts()) : nullptr;
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Other = Other || !Var || (Returned && Returned != Var);
    Returned = Var;
    return Other;
  });
  if (Other || !Returned)
    return nullptr;
  const LambdaCapture *Capture = nullptr;
  for (const LambdaCapture &Each : Lambda->captures())
    if (Each.capturesVariable() && Each.getCapturedVar() == Returned)
      Capture = &Each;
  if (!Capture)
    return nullptr;
  BodyFacts &Body = Facts.body();
  if (Capture->getCaptureKind() == LCK_ByRef &&
      (!Body.assignmentsTo(*Returned).empty() || Body.isEscaped(*Returned)))
    return nullptr;
  auto It = Captured->Known.find(AccessPath(Returned));
  return It == Captured->Known.end() ? nullptr : &It->second;
}

// The call that made the value in pageable host memory, or null when its
// memory is unknown (a parameter, a loader's batch) or pinned. Every
// operation allocates its result in ordinary memory, whatever its inputs;
// only pin_memory(), pinned options and a non_blocking download give
// pinned memory. A view, an in-place op and a copy_ into a tensor keep the
// tensor's memory: where that was made.
const CallExpr *pageableMaker(const FunctionFacts &Facts, const ValueFact &Fact,
                              unsigned Depth = 0) {
  // Made by a helper of the unit (returned, or stored in a field by a
  // constructor): its memory is what the helper made.
  if (const FunctionFacts &Home = Facts.makerFacts(Fact); &Home != &Facts)
    return pageableMaker(Home, Fact, Depth);
  // A dtype conversion of pageable memory is pageable; of pinned memory, a
  // new tensor in ordinary memory when it converts to a dtype the code names
  // as a constant (`to(kHalf)`); to a dtype read from elsewhere (`to(
  // x.dtype())`) it may be the tensor itself.
  if (const CXXMemberCallExpr *Conversion = Facts.conversionThatMade(Fact)) {
    const ValueFact *Source = Facts.factAt(Conversion->getImplicitObjectArgument());
    if (const CallExpr *Earlier =
            Source && Depth < kMaxChain ? pageableMaker(Facts, *Source, Depth + 1) : nullptr)
      return Earlier;
    return onHostOnly(Fact.Devices) && namesConstantDtype(*Conversion) ? Conversion : nullptr;
  }
  if (const ValueFact *Returned = Facts.madeInCallee(Fact); Returned && Depth < kMaxChain)
    return pageableMaker(Facts, *Returned, Depth + 1);
  std::optional<AbstractDevice> On = Fact.Devices.single();
  const auto *Call = dyn_cast_or_null<CallExpr>(Fact.MadeBy);
  if (!On || !On->isCpu() || !Call || !Facts.factAt(Call) || Depth >= kMaxChain)
    return nullptr;
  auto MemoryOf = [&](const Expr *Tensor) {
    const ValueFact *Written = Tensor ? Facts.factAt(Tensor) : nullptr;
    return Written ? pageableMaker(Facts, *Written, Depth + 1) : nullptr;
  };
  const ApiModel &Model = Facts.body().model();
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call)) {
    // A call of a lambda of the function gives back what its body returns.
    if (Operator->getOperator() == OO_Call) {
      const ValueFact *Returned = returnedCapture(Facts, *Operator);
      return Returned ? pageableMaker(Facts, *Returned, Depth + 1) : nullptr;
    }
    // `t[i]` is a view of t's memory; an element of a container (`v[i]`)
    // is what the container holds, whose maker is not this call.
    if (Operator->getOperator() == OO_Subscript)
      return Model.isTensor(Operator->getArg(0)->getType()) ? MemoryOf(Operator->getArg(0))
                                                            : nullptr;
    // A compound assignment writes its left operand, where that was made.
    if (Operator->isAssignmentOp())
      return MemoryOf(Operator->getArg(0));
    // An arithmetic operator on tensors (`a - b`, `-a`) allocates its
    // result; a dereference (`*held`) or an arrow gives what it points to.
    bool OnTensors = llvm::any_of(Operator->arguments(), [&](const Expr *Arg) {
      return Model.isTensor(Arg->getType());
    });
    bool Dereference = (Operator->getOperator() == OO_Star && Operator->getNumArgs() == 1) ||
                       Operator->getOperator() == OO_Arrow;
    return OnTensors && !Dereference && Operator->getOperator() != OO_Comma ? Call : nullptr;
  }
  ApiCall Api = Model.classifyCall(*Call);
  // The tensor a view or an in-place op works on: the method's object, or
  // the free spelling's first tensor argument (`torch::narrow(t, ...)`).
  const Expr *Object = nullptr;
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Method->getImplicitObjectArgument();
  else
    for (const Expr *Arg : Call->arguments())
      if (!Object && Model.isTensor(Arg->getType()))
        Object = Arg;
  switch (Api.Kind) {
  case CallKind::Factory:
  case CallKind::FactoryLike:
  case CallKind::ScalarFactory:
  case CallKind::Sample:
    return llvm::any_of(Call->arguments(),
                        [&](const Expr *Arg) {
                          const ValueFact *Options = Facts.factAt(Arg);
                          return Options &&
                                 Model.classify(Arg->getType()) == ValueKind::TensorOptions &&
                                 Facts.optionsAskFor(*Options, CallKind::OptionsPinnedMemory,
                                                     /*UnknownAsks=*/true);
                        })
               ? nullptr
               : Call;
  case CallKind::WrapsHostMemory: {
    std::optional<const ValueDecl *> Owner =
        Call->getNumArgs() ? pageableBuffer(Call->getArg(0), Facts.body()) : std::nullopt;
    return Owner && (!*Owner || !registeredAsPinned(**Owner, Facts)) ? Call : nullptr;
  }
  case CallKind::Transfer: {
    // A blocking download; a non_blocking one gives pinned memory.
    const Transfer *T = Facts.transferThatMade(Fact);
    return T && !T->NonBlocking ? Call : nullptr;
  }
  case CallKind::CrossDeviceCopy:
    // `staging.copy_(x, true)` writes into staging's own memory.
    return MemoryOf(Object);
  case CallKind::SameDeviceOp:
  case CallKind::ListOp:
  case CallKind::FullReduction:
  case CallKind::Loss:
  case CallKind::ShapePreserving:
    return Api.InPlace ? MemoryOf(Object) : Call;
  case CallKind::Reshape:
  case CallKind::Indexing:
  case CallKind::Split:
    return MemoryOf(Object); // a view of its tensor's memory
  default:
    return nullptr;
  }
}

// For a copy in a method of a tensor its object holds in a field
// (`batch.to(device, true)` in `run()`), the value that field holds in the
// object of the call here (`step.run()`): the object's part for the field,
// which a constructor or an aggregate initialiser stored. Null
// when the copy is in a function the method calls, or the method may change
// the field.
const ValueFact *fieldGivenByCall(const FunctionFacts &Facts, const CXXMemberCallExpr &Copy,
                                  const Expr &Through) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(&Through);
  const auto *Read =
      dyn_cast<MemberExpr>(stripCopies(Copy.getImplicitObjectArgument())->IgnoreParenImpCasts());
  const auto *Field = Read ? dyn_cast<FieldDecl>(Read->getMemberDecl()) : nullptr;
  const FunctionDecl *Method = nullptr;
  if (!Call || !Field || !isa<CXXThisExpr>(Read->getBase()->IgnoreParenImpCasts()) ||
      !Call->getMethodDecl() || !Call->getMethodDecl()->hasBody(Method) ||
      !findInTree(Method->getBody(), [&](const Stmt &S) { return &S == &Copy; }))
    return nullptr;
  BodyFacts Callee(*Method->getBody(), Facts.body().model());
  if (Callee.isChangedIn(*Field, *Method->getBody()))
    return nullptr;
  const auto &Parts = Facts.expressionParts();
  auto It = Parts.find(Call->getImplicitObjectArgument());
  if (It == Parts.end())
    It = Parts.find(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  if (It == Parts.end())
    return nullptr;
  for (const auto &[Relative, Fact] : It->second)
    if (Relative.depth() == 1 && Relative.steps().front().asField() == Field)
      return &Fact;
  return nullptr;
}

} // namespace

void diagnosePageableNonBlocking(const FunctionFacts &Facts, FindingsHandler &Handler) {
  const ApiModel &Model = Facts.body().model();
  auto Report = [&](const CallExpr &Copy, const Expr &Source, const ValueFact &SourceFact) {
    const CallExpr *Maker = pageableMaker(Facts, SourceFact);
    if (!Maker)
      return;
    bool Factory = Model.classifyCall(*Maker).Kind == CallKind::Factory;
    Handler.onPageableNonBlocking(
        {&Copy, &Source, Maker, Factory && initializesSource(Source, *Maker)});
  };
  // An upload (`x.to(device, true)`, `d.copy_(x, true)`): to a device that
  // is not (only) the host.
  for (const Transfer &T : Facts.transfers()) {
    if (T.IsSync || !T.NonBlocking || !T.Target.isKnown() || onHostOnly(T.Target))
      continue;
    Report(*T.Call, *T.Tensor, T.Source);
  }
  // A helper of the unit that uploads what its caller gives it: the memory
  // is the caller's argument's, reported at the helper's copy.
  for (const TransferThroughCall &Through : Facts.calleeTransfers()) {
    const CalleeTransfer &T = Through.Transfer;
    if (T.IsSync || !T.NonBlocking || !T.Target.isKnown() || onHostOnly(T.Target))
      continue;
    const Expr *Given = Through.Given.empty() ? nullptr : Through.Given.front();
    if (const ValueFact *Source = Given && T.MovesInput ? Facts.factAt(Given) : nullptr)
      Report(*T.Call, *Given, *Source);
    else if (const ValueFact *Field = T.IntoDestination
                                          ? nullptr
                                          : fieldGivenByCall(Facts, *T.Call, *Through.Through))
      Report(*T.Call, *T.Call->getImplicitObjectArgument(), *Field);
  }
}

} // namespace placelint::analysis
