#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-unguarded-cuda: CUDA requested on a path with no availability
// check. See docs/rules/placement-unguarded-cuda.md.
class UnguardedCudaCheck : public PlacementCheck {
public:
  UnguardedCudaCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
