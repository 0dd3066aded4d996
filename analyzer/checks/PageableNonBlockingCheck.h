#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-pageable-non-blocking: a non_blocking copy to a device from host
// memory that is not pinned, which the driver stages synchronously. See
// docs/rules/placement-pageable-non-blocking.md.
class PageableNonBlockingCheck : public PlacementCheck {
public:
  PageableNonBlockingCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
