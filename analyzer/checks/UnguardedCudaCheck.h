#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-unguarded-cuda: CUDA requested on a path with no availability
// check. See docs/rules/placement-unguarded-cuda.md.
class UnguardedCudaCheck : public PlacementCheck {
public:
  // Says which GpuTestSuffixes entries it ignores (the option is this
  // check's business, though every check reads it).
  UnguardedCudaCheck(StringRef Name, ClangTidyContext *Context);

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
