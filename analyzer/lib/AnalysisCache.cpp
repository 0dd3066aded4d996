#include "placelint/analysis/AnalysisCache.h"

namespace placelint::analysis {

void RecordedFindings::replay(FindingsHandler &Handler) const {
  for (const auto &[Finding, Definite] : Mixed) {
    if (Definite)
      Handler.onMixedDevice(Finding);
    else
      Handler.onMayMixedDevice(Finding);
  }
  for (const DiscardedTransferFinding &Finding : Discarded)
    Handler.onDiscardedTransfer(Finding);
  for (const LoopTransferFinding &Finding : Invariant)
    Handler.onInvariantTransferInLoop(Finding);
  for (const RoundTripFinding &Finding : RoundTrips)
    Handler.onRoundTripInLoop(Finding);
  for (const SyncFinding &Finding : Syncs)
    Handler.onSyncInLoop(Finding);
  for (const CreateThenMoveFinding &Finding : CreatedThenMoved)
    Handler.onCreateThenMove(Finding);
  for (const UnguardedCudaFinding &Finding : Unguarded)
    Handler.onUnguardedCuda(Finding);
  for (const NonLeafParameterFinding &Finding : NonLeaf)
    Handler.onNonLeafParameter(Finding);
}

AnalysisCache &AnalysisCache::forCurrentThread() {
  thread_local AnalysisCache Cache;
  return Cache;
}

void AnalysisCache::startTranslationUnit() {
  Results.clear();
  Analyses.clear();
  Context = nullptr;
}

const RecordedFindings &AnalysisCache::findingsFor(const clang::FunctionDecl &Function,
                                                   clang::ASTContext &NewContext,
                                                   const AnalysisOptions &Options) {
  if (Context != &NewContext) {
    startTranslationUnit();
    Context = &NewContext;
  }
  DeviceAnalysis *Analysis = nullptr;
  for (auto &[Key, Existing] : Analyses)
    if (Key == Options)
      Analysis = Existing.get();
  if (!Analysis) {
    Analyses.emplace_back(Options, std::make_unique<DeviceAnalysis>(NewContext, Options));
    Analysis = Analyses.back().second.get();
  }
  std::unique_ptr<RecordedFindings> &Slot = Results[{&Function, Analysis}];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<RecordedFindings>();
  Analysis->analyze(Function, *Slot);
  return *Slot;
}

} // namespace placelint::analysis
