#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-create-then-move: a factory builds a tensor on the host only to
// move it to a device at once; the fix-it passes the device to the factory.
// See docs/rules/placement-create-then-move.md.
class CreateThenMoveCheck : public PlacementCheck {
public:
  CreateThenMoveCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
