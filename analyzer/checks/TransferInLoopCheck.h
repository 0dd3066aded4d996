#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-transfer-in-loop: a loop moves an unchanged tensor, round-trips
// a tensor, or copies a device tensor to the host on every iteration. See
// docs/rules/placement-transfer-in-loop.md.
class TransferInLoopCheck : public PlacementCheck {
public:
  TransferInLoopCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;

  const bool SyncInLoop;
  // Also syncs from a tensor on a Device variable's device (may be CUDA).
  const bool SyncOnDeviceVariable;
};

} // namespace clang::tidy::placement
