// Branches on whether CUDA is there (`if (cuda::is_available())`): on the
// edge where it is not, no download came from a CUDA device.
// Branches on a device's kind (`if (device.is_cuda())`, `if
// (!x.is_cuda())`): on the edge where the device is not CUDA, a tensor on
// that device is on the host, so a non_blocking download of it
// (`x.to(kCPU, true)`, `h.copy_(x, true)`) copied a host tensor and queued
// nothing. `if (device.is_cuda()) torch::cuda::synchronize();` then
// completes the download on both edges. A device chosen at run time is
// taken to be the host when it is not CUDA (libtorch programs choose
// between the two; one that picks another accelerator is not modelled).
#include "flow/DeviceFlow.h"

#include "ApiSpellings.h"

#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// The device or tensor whose being on CUDA Condition tests, and whether
// the condition is true when it is.
std::optional<std::pair<const Expr *, bool>> cudaTested(const Expr *Condition,
                                                       const ApiModel &Model) {
  if (!Condition)
    return std::nullopt;
  Condition = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition); Not && Not->getOpcode() == UO_LNot) {
    std::optional<std::pair<const Expr *, bool>> Inner = cudaTested(Not->getSubExpr(), Model);
    if (Inner)
      Inner->second = !Inner->second;
    return Inner;
  }
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Condition);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || Call->getNumArgs() != 0 || !Method->getIdentifier() ||
      !hasApiName(ApiNameRole::CudaTest, Method->getName()))
    return std::nullopt;
  // A tensor's metadata, or the API's Device (`device.is_cuda()`).
  const Expr *Object = Call->getImplicitObjectArgument();
  if (Model.classifyCall(*Call).Kind != CallKind::Metadata &&
      Model.classify(Object->getType()) != ValueKind::Device)
    return std::nullopt;
  return std::make_pair(Object, true);
}

// A device written in the code that is neither the host nor CUDA (`sim`):
// "not CUDA" says nothing of where it is.
bool isOtherAccelerator(const AbstractDevice &D) {
  return D.isConcrete() && !D.isCpu() && D.type() != DeviceKind::CUDA;
}

// Whether Condition is a check that CUDA is there (`cuda::is_available()`,
// a listed AvailabilityChecks flag), and whether it is true when it is.
std::optional<bool> availabilityTested(const Expr *Condition, const ApiModel &Model) {
  if (!Condition)
    return std::nullopt;
  Condition = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition); Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = availabilityTested(Not->getSubExpr(), Model);
    return Inner ? std::optional(!*Inner) : std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(Condition);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || Model.availabilityCheck(*Callee) != AvailabilityKind::Flag)
    return std::nullopt;
  return true;
}

} // namespace

void DeviceFlow::refineByDeviceTest(const CFGBlock &Branch, const CFGBlock &Successor,
                                    FlowState &State) const {
  if (Branch.succ_size() != 2)
    return;
  bool TrueEdge = *Branch.succ_begin() == &Successor;
  // Where CUDA is not there (`if (cuda::is_available()) synchronize();`),
  // no download came from it: one of a tensor on the host queued nothing,
  // and one of a tensor asked for on CUDA was never reached.
  const auto *Condition = dyn_cast_or_null<Expr>(Branch.getTerminatorCondition());
  if (std::optional<bool> Available = availabilityTested(Condition, Model)) {
    if (TrueEdge == *Available)
      return;
    auto FromOtherAccelerator = [&](const CallExpr &Copy) {
      const Transfer *Here = Facts.transferAt(Copy);
      return Here && llvm::any_of(Here->Source.Devices.devices(), isOtherAccelerator);
    };
    for (auto &[Path, Fact] : State)
      if (Fact.Pending && !FromOtherAccelerator(*Fact.Pending))
        Fact.Pending = nullptr;
    return;
  }
  std::optional<std::pair<const Expr *, bool>> Tested =
      cudaTested(Condition, Model);
  if (!Tested)
    return;
  if (TrueEdge == Tested->second)
    return; // the edge where it is CUDA
  // Where it may be: the host, CUDA devices, or a device chosen at run time
  // (`is_available() ? kCUDA : kCPU`, a parameter), taken to be the host
  // when it is not CUDA. Of another accelerator written in the code (`sim`)
  // "not CUDA" does not say the host.
  const ValueFact *Device = Facts.factAt(Tested->first);
  if (!Device)
    Device = Facts.factAt(Tested->first->IgnoreParenImpCasts());
  if (!Device || !Device->Devices.isKnown() ||
      llvm::any_of(Device->Devices.devices(), isOtherAccelerator))
    return;
  // Whether the download Copy copied a tensor on that device, as the test
  // tells of it: a copy here, or one a helper called here made of what the
  // calls gave it (the same device on every call).
  auto CopiesTested = [&](const CallExpr &Copy) {
    if (const Transfer *Here = Facts.transferAt(Copy))
      return Here->Source.Devices == Device->Devices;
    bool Seen = false;
    for (const TransferThroughCall &Through : Facts.calleeTransfers()) {
      if (Through.Transfer.Call != &Copy)
        continue;
      const Expr *Given = Through.Transfer.MovesInput ? Through.Given.front() : nullptr;
      const ValueFact *Source = Given ? Facts.factAt(Given) : nullptr;
      if (!Source || !(Source->Devices == Device->Devices))
        return false;
      Seen = true;
    }
    return Seen;
  };
  for (auto &[Path, Fact] : State)
    if (Fact.Pending && CopiesTested(*Fact.Pending))
      Fact.Pending = nullptr;
}

} // namespace placelint::analysis
