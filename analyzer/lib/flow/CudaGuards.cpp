// Where CUDA is asked for, and how many devices the availability checks on
// the way there ensure: those of this function (AvailabilityGuards), or,
// for a helper of the unit, those around every call of it.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "flow/AvailabilityGuards.h"

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
    unsigned Here = Block ? Guards.devicesEnsuredAt(*Block) : 0;
    if (Here >= Request.DevicesNeeded)
      return {Here, nullptr};
    if (!ByCallers)
      ByCallers = Summaries.devicesEnsuredByCallers(Function);
    if (ByCallers->Devices <= Here)
      return {Here, Here == 0 ? ByCallers->WeakestCall : nullptr};
    return {ByCallers->Devices, ByCallers->WeakestCall};
  });
}

void DeviceFlow::noteCudaRequest(const Expr &Where, const AbstractDevice &Device) {
  if (!Device.isCuda() || !CurrentBlock || Facts.body().isComparedDevice(Where))
    return;
  unsigned Needed = Device.index() == AbstractDevice::kCurrentIndex ? 1 : Device.index() + 1;
  Facts.recordCudaRequest(Where, CurrentBlock->getBlockID(), Needed);
}

} // namespace placelint::analysis
