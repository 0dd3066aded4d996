#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-unsynchronized-read: a host tensor filled by a non_blocking
// download, read before anything waited for the copy. See
// docs/rules/placement-unsynchronized-read.md.
class UnsynchronizedReadCheck : public PlacementCheck {
public:
  UnsynchronizedReadCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
