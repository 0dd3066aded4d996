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
  // An operator on tensors (`a - b`, `-a`) allocates its result; a compound
  // assignment writes its left operand, where that was made.
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call))
    return Operator->isAssignmentOp() ? MemoryOf(Operator->getArg(0)) : Call;
  const ApiModel &Model = Facts.body().model();
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
                                 Facts.optionsAskFor(*Options, CallKind::OptionsPinnedMemory);
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
  for (const Transfer &T : Facts.transfers()) {
    // An upload: to a device that is not (only) the host.
    if (T.IsSync || !T.NonBlocking || !T.Target.isKnown() || onHostOnly(T.Target))
      continue;
    Report(*T.Call, *T.Call->getImplicitObjectArgument(), T.Source);
  }
  // A helper of the unit that uploads what its caller gives it: the memory
  // is the caller's argument's, reported at the helper's copy.
  for (const TransferThroughCall &Through : Facts.calleeTransfers()) {
    const CalleeTransfer &T = Through.Transfer;
    const Expr *Given = Through.Given.empty() ? nullptr : Through.Given.front();
    const ValueFact *Source = Given ? Facts.factAt(Given) : nullptr;
    if (T.IsSync || !T.NonBlocking || !T.MovesInput || !Source || !T.Target.isKnown() ||
        onHostOnly(T.Target))
      continue;
    Report(*T.Call, *Given, *Source);
  }
  // `d.copy_(x, true)` into a tensor that may be on a device, in
  // control-flow order.
  llvm::SmallVector<const CXXMemberCallExpr *, 4> Copies;
  for (const auto &[E, Fact] : Facts.expressions())
    if (const auto *Copy = dyn_cast<CXXMemberCallExpr>(E))
      Copies.push_back(Copy);
  const FunctionSequence &Sequence = Facts.sequence();
  llvm::sort(Copies, [&](const Expr *L, const Expr *R) { return Sequence.isEarlier(*L, *R); });
  for (const CXXMemberCallExpr *Copy : Copies) {
    if (Copy->getNumArgs() == 0 ||
        Model.classifyCall(*Copy).Kind != CallKind::CrossDeviceCopy || !Model.isNonBlocking(*Copy))
      continue;
    const ValueFact *Destination = Facts.factAt(Copy->getImplicitObjectArgument());
    const ValueFact *Source = Facts.factAt(Copy->getArg(0));
    if (Destination && Source && Destination->Devices.isKnown() &&
        !onHostOnly(Destination->Devices))
      Report(*Copy, *Copy->getArg(0), *Source);
  }
}

} // namespace placelint::analysis
