#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-discarded-transfer: the result of Tensor::to/cuda/cpu is thrown
// away, so the tensor did not move. See docs/rules/placement-discarded-transfer.md.
class DiscardedTransferCheck : public PlacementCheck {
public:
  DiscardedTransferCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
