// Where CUDA is asked for, and how many devices the availability checks on
// the way there ensure: those of this function (AvailabilityGuards), or,
// for a helper of the unit, those around every call of it.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/AvailabilityGuards.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace placelint::analysis {

using namespace clang;

namespace {

// Whether S is inside a `try` block of Body: a request that fails there may
// be caught, and the function goes on without the devices.
bool inTryBlock(const Stmt &Body, const Stmt &S) {
  return findInTree(&Body, [&](const Stmt &Try) {
           const auto *Block = dyn_cast<CXXTryStmt>(&Try);
           return Block && findInTree(Block->getTryBlock(),
                                      [&](const Stmt &Inner) { return &Inner == &S; });
         }) != nullptr;
}

// How many CUDA devices every constructor of Method's class proves are
// there by returning (CallSummary::DevicesEstablished): a method runs on an
// object one of them made. 0 for a free function, a static method, a
// constructor or a lambda.
unsigned establishedByConstruction(const FunctionDecl &Function, SummaryProvider &Summaries) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (!Method || Method->isStatic() || isa<CXXConstructorDecl, CXXDestructorDecl>(Method) ||
      Method->getParent()->isLambda())
    return 0;
  std::optional<unsigned> Least;
  for (const CXXConstructorDecl *Ctor : Method->getParent()->ctors()) {
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted())
      continue; // a copy is of an object made already
    const FunctionDecl *Definition = nullptr;
    unsigned Devices = Ctor->hasBody(Definition)
                           ? Summaries.summarize(*Definition, CallInputs{}).DevicesEstablished
                           : 0;
    Least = std::min(Least.value_or(Devices), Devices);
  }
  return Least.value_or(0);
}

// Whether Field holds a device the object was given: every constructor of
// its class sets it from its parameters (`device_(cfg.device)`).
bool givenToTheObject(const FieldDecl &Field, const CXXRecordDecl &Class) {
  bool Any = false;
  for (const CXXConstructorDecl *Ctor : Class.ctors()) {
    const FunctionDecl *Definition = nullptr;
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted())
      continue;
    if (!Ctor->hasBody(Definition))
      return false;
    const CXXCtorInitializer *Sets = nullptr;
    for (const CXXCtorInitializer *Init : cast<CXXConstructorDecl>(Definition)->inits())
      if (Init->isWritten() && Init->getMember() == &Field)
        Sets = Init;
    if (!Sets || !findInTree(Sets->getInit(), [](const Stmt &S) {
          const auto *Ref = dyn_cast<DeclRefExpr>(&S);
          return Ref && isa<ParmVarDecl>(Ref->getDecl());
        }))
      return false;
    Any = true;
  }
  return Any;
}

// Whether the request at Use places with devices the object was given:
// each device or options argument of Use is (or is built from) a field of
// `this` that givenToTheObject; CUDA written in the class itself
// (`Device second_{kCUDA, 1};`) is not.
bool usesAGivenDevice(const Expr &Use, const CXXMethodDecl &Method, const ApiModel &Model) {
  llvm::SmallVector<const Expr *, 4> Args;
  if (const auto *Call = dyn_cast<CallExpr>(&Use))
    Args.append(Call->arg_begin(), Call->arg_end());
  else if (const auto *Construct = dyn_cast<CXXConstructExpr>(&Use))
    Args.append(Construct->arg_begin(), Construct->arg_end());
  bool Given = false;
  for (const Expr *Arg : Args) {
    ValueKind Kind = Model.classify(Arg->getType());
    if (Kind != ValueKind::Device && Kind != ValueKind::TensorOptions)
      continue;
    // Through copies and conversions (`optional<Device>`), and options built
    // from the device: `TensorOptions().device(device_)`.
    auto Unwrap = [](const Expr *E) {
      E = E->IgnoreImplicit()->IgnoreParenImpCasts();
      while (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
        if (Construct->getNumArgs() != 1)
          break;
        E = Construct->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts();
      }
      return E;
    };
    const Expr *Device = Unwrap(Arg);
    for (unsigned Depth = 0; Depth < 8; ++Depth) {
      const auto *Builder = dyn_cast<CallExpr>(Device);
      if (!Builder || Model.classifyCall(*Builder).Kind != CallKind::OptionsDevice ||
          Builder->getNumArgs() < 1)
        break;
      Device = Unwrap(Builder->getArg(0));
    }
    const auto *Member = dyn_cast<MemberExpr>(Device);
    const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    if (!Field || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()) ||
        !givenToTheObject(*Field, *Method.getParent()))
      return false;
    Given = true;
  }
  return Given;
}

} // namespace

void DeviceFlow::resolveCudaGuards() {
  if (Facts.cudaRequests().empty())
    return;
  AvailabilityGuards Guards(*Graph, Model, Context);
  llvm::DenseMap<unsigned, const CFGBlock *> ById;
  for (const CFGBlock *Block : *Graph)
    ById[Block->getBlockID()] = Block;
  // How many devices the calls that ran on every path to Request prove are
  // there: a function of the unit that asks for them on every path would
  // have thrown without them (one bug, one report across functions: the
  // request here is never reached on a machine that lacks them). Requests
  // of this function are each reported: each needs its own check.
  auto EstablishedBefore = [&](const CudaRequest &Request, const CFGBlock &At) {
    unsigned Devices = 0;
    for (const CFGBlock *Earlier : *Graph) {
      if (!Earlier || !Guards.dominates(*Earlier, At))
        continue;
      for (const CFGElement &Element : *Earlier) {
        std::optional<CFGStmt> Evaluated = Element.getAs<CFGStmt>();
        const Stmt *S = Evaluated ? Evaluated->getStmt() : nullptr;
        if (!S)
          continue;
        if (S == Request.Where)
          break;
        if (inTryBlock(*Function.getBody(), *S))
          continue;
        if (isa<CallExpr, CXXConstructExpr>(S))
          Devices = std::max(Devices, Summaries.devicesEstablishedBy(*cast<Expr>(S)));
      }
    }
    return Devices;
  };
  // A method runs on an object one of its class's constructors made: a
  // device the object was given is asked for where every constructor
  // placed with it (one bug, one report: the constructor's
  // `model_->to(device_)`, not again `x.to(device_)` in a method). CUDA
  // the class writes itself (`Device second_{kCUDA, 1};`, `.cuda()`) is
  // asked for at each use.
  std::optional<unsigned> Constructed;
  auto GivenAndEstablished = [&](const CudaRequest &Request) {
    const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
    if (!Method || !usesAGivenDevice(*Request.Where, *Method, Model))
      return false;
    if (!Constructed)
      Constructed = establishedByConstruction(Function, Summaries);
    return *Constructed >= Request.DevicesNeeded;
  };
  std::optional<CallersGuard> ByCallers;
  Facts.setCudaGuards([&](const CudaRequest &Request) -> std::pair<unsigned, const Expr *> {
    const CFGBlock *Block = ById.lookup(Request.Block);
    unsigned Here = std::max(Model.devicesEnsuredByTestName(Function),
                             Block ? Guards.devicesEnsuredAt(*Block) : 0);
    // Only a proof of all the devices it needs silences a request: fewer are
    // no check, and the report says what the checks ensure.
    if (Here < Request.DevicesNeeded && Block &&
        EstablishedBefore(Request, *Block) >= Request.DevicesNeeded)
      return {Request.DevicesNeeded, nullptr};
    if (Here >= Request.DevicesNeeded)
      return {Here, nullptr};
    if (GivenAndEstablished(Request))
      return {Request.DevicesNeeded, nullptr};
    // Under `if (cuda)` on a bool parameter or field: the calls passing
    // false do not run it.
    llvm::SmallVector<const ValueDecl *, 2> Flags;
    if (Block)
      Flags = Guards.flagsTrueAt(*Block);
    if (!ByCallers)
      ByCallers = Summaries.devicesEnsuredByCallers(Function);
    CallersGuard Callers =
        Flags.empty() ? *ByCallers : Summaries.devicesEnsuredByCallers(Function, Flags);
    if (Callers.Devices <= Here)
      return {Here, Here == 0 ? Callers.WeakestCall : nullptr};
    return {Callers.Devices, Callers.WeakestCall};
  });
}

void DeviceFlow::noteCudaUse(const Expr &Use, const ValueFact &Device) {
  std::optional<AbstractDevice> Single = Device.Devices.single();
  // `Device(kCUDA, rank)` with an index the analysis cannot compute: CUDA
  // all the same, and any availability check ensures it (counted as cuda:0).
  if (Device.Devices.isUnknown() && Device.MadeBy &&
      ApiModel::deviceKindOfConstant(*Device.MadeBy, Context) == DeviceKind::CUDA)
    Single = AbstractDevice::cuda(0);
  if (!Single || !Single->isCuda())
    return;
  const SourceManager &SM = Context.getSourceManager();
  SourceRange Body = Function.getBody()->getSourceRange();
  auto InBody = [&](const Expr &E) {
    SourceLocation At = SM.getExpansionLoc(E.getExprLoc());
    return !SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(Body.getBegin())) &&
           !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body.getEnd()), At);
  };
  // Where the device was written: the value itself, or, for options, the
  // device given to their builder (`torch::device(torch::kCUDA)`); one a
  // helper made is requested where it is used, unless the helper read it
  // off a tensor or module (`return weight_.device();`).
  const ValueFact *Fact = &Device;
  const FunctionFacts *Home = &Facts;
  for (unsigned Depth = 0; Fact && Fact->MadeBy && Depth < 8; ++Depth) {
    Home = Fact->MadeIn ? Fact->MadeIn : Home;
    const auto *Builder = dyn_cast<CallExpr>(Fact->MadeBy);
    if (!Builder) {
      noteCudaRequest(Home == &Facts && InBody(*Fact->MadeBy) ? *Fact->MadeBy : Use, *Single);
      return;
    }
    ApiCall Api = Model.classifyCall(*Builder);
    const auto *Method = dyn_cast<CXXMemberCallExpr>(Builder);
    if (Api.Kind == CallKind::OptionsDevice && Builder->getNumArgs() >= 1)
      Fact = Home->factAt(Builder->getArg(0));
    else if (Method && (Api.Kind == CallKind::OptionsBuilder ||
                        Api.Kind == CallKind::OptionsRequiresGrad ||
                        Api.Kind == CallKind::OptionsPinnedMemory))
      Fact = Home->factAt(Method->getImplicitObjectArgument());
    else if (Api.Kind == CallKind::DeviceOf || Api.Kind == CallKind::OptionsOf)
      return; // a tensor's own device: asked for where the tensor went there
    else if (const ValueFact *Returned = Home->madeInCallee(*Fact))
      Fact = Returned; // what the helper returned, as it made it
    else
      break;
  }
  noteCudaRequest(Use, *Single);
}

void DeviceFlow::noteCudaRequest(const Expr &Where, const AbstractDevice &Device) {
  if (!Device.isCuda() || !CurrentBlock)
    return;
  unsigned Needed = Device.index() == AbstractDevice::kCurrentIndex ? 1 : Device.index() + 1;
  Facts.recordCudaRequest(Where, CurrentBlock->getBlockID(), Needed);
}

} // namespace placelint::analysis
