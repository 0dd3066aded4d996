#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-missing-device-guard: CUDA work launched on the current device
// by a function taking tensors, with no device guard set from their device.
// See docs/rules/placement-missing-device-guard.md.
class MissingDeviceGuardCheck : public PlacementCheck {
public:
  MissingDeviceGuardCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
