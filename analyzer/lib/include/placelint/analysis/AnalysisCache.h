// Runs the device analysis once per function and keeps the findings, so that
// every check asking about the same function shares one run.
#pragma once

#include "placelint/analysis/DeviceAnalysis.h"
#include "placelint/analysis/Findings.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

// The findings of one function, recorded to be replayed to each check.
class RecordedFindings : public FindingsHandler {
public:
  void onMixedDevice(const MixedDeviceFinding &F) override { Mixed.push_back({F, true}); }
  void onMayMixedDevice(const MixedDeviceFinding &F) override { Mixed.push_back({F, false}); }
  void onDiscardedTransfer(const DiscardedTransferFinding &F) override {
    Discarded.push_back(F);
  }
  void onInvariantTransferInLoop(const LoopTransferFinding &F) override {
    Invariant.push_back(F);
  }
  void onRoundTripInLoop(const RoundTripFinding &F) override { RoundTrips.push_back(F); }
  void onSyncInLoop(const SyncFinding &F) override { Syncs.push_back(F); }
  void onCreateThenMove(const CreateThenMoveFinding &F) override { CreatedThenMoved.push_back(F); }
  void onUnguardedCuda(const UnguardedCudaFinding &F) override { Unguarded.push_back(F); }
  void onNonLeafParameter(const NonLeafParameterFinding &F) override { NonLeaf.push_back(F); }

  // Calls Handler's methods in the order the findings were made within each kind.
  void replay(FindingsHandler &Handler) const;

private:
  std::vector<std::pair<MixedDeviceFinding, bool>> Mixed;
  std::vector<DiscardedTransferFinding> Discarded;
  std::vector<LoopTransferFinding> Invariant;
  std::vector<RoundTripFinding> RoundTrips;
  std::vector<SyncFinding> Syncs;
  std::vector<CreateThenMoveFinding> CreatedThenMoved;
  std::vector<UnguardedCudaFinding> Unguarded;
  std::vector<NonLeafParameterFinding> NonLeaf;
};

// One per thread; holds the analyses of the current translation unit.
class AnalysisCache {
public:
  static AnalysisCache &forCurrentThread();

  // Drops everything about the previous translation unit.
  void startTranslationUnit();
  // The findings for Function, analysing it on first request. Checks
  // configured alike share one analysis.
  const RecordedFindings &findingsFor(const clang::FunctionDecl &Function,
                                      clang::ASTContext &Context,
                                      const AnalysisOptions &Options);

private:
  const clang::ASTContext *Context = nullptr;
  std::vector<std::pair<AnalysisOptions, std::unique_ptr<DeviceAnalysis>>> Analyses;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, const DeviceAnalysis *>,
                 std::unique_ptr<RecordedFindings>>
      Results;
};

} // namespace placelint::analysis
