#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-mixed-device: one operation combines tensors on different
// devices. See docs/rules/placement-mixed-device.md.
class MixedDeviceCheck : public PlacementCheck {
public:
  MixedDeviceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;

  const bool ReportMayMismatch;
};

} // namespace clang::tidy::placement
