// Where CUDA is asked for, and how many devices the availability checks on
// the way there ensure: those of this function (AvailabilityGuards), or,
// for a helper of the unit, those around every call of it.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "flow/AvailabilityGuards.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace placelint::analysis {

using namespace clang;

void DeviceFlow::resolveCudaGuards() {
  if (Facts.cudaRequests().empty())
    return;
  AvailabilityGuards Guards(*Graph, Model, Context);
  llvm::DenseMap<unsigned, const CFGBlock *> ById;
  for (const CFGBlock *Block : *Graph)
    ById[Block->getBlockID()] = Block;
  std::optional<CallersGuard> ByCallers;
  Facts.setCudaGuards([&](const CudaRequest &Request) -> std::pair<unsigned, const Expr *> {
    const CFGBlock *Block = ById.lookup(Request.Block);
    unsigned Here = std::max(Model.devicesEnsuredByTestName(Function),
                             Block ? Guards.devicesEnsuredAt(*Block) : 0);
    if (Here >= Request.DevicesNeeded)
      return {Here, nullptr};
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
  // helper made is requested where it is used.
  const ValueFact *Fact = &Device;
  for (unsigned Depth = 0; Fact && Fact->MadeBy && !Fact->MadeIn && Depth < 8; ++Depth) {
    const auto *Builder = dyn_cast<CallExpr>(Fact->MadeBy);
    if (!Builder) {
      noteCudaRequest(InBody(*Fact->MadeBy) ? *Fact->MadeBy : Use, *Single);
      return;
    }
    ApiCall Api = Model.classifyCall(*Builder);
    const auto *Method = dyn_cast<CXXMemberCallExpr>(Builder);
    if (Api.Kind == CallKind::OptionsDevice && Builder->getNumArgs() >= 1)
      Fact = Facts.factAt(Builder->getArg(0));
    else if (Method && (Api.Kind == CallKind::OptionsBuilder ||
                        Api.Kind == CallKind::OptionsRequiresGrad ||
                        Api.Kind == CallKind::OptionsPinnedMemory))
      Fact = Facts.factAt(Method->getImplicitObjectArgument());
    else if (Api.Kind == CallKind::DeviceOf || Api.Kind == CallKind::OptionsOf)
      return; // a tensor's own device: asked for where the tensor went there
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
