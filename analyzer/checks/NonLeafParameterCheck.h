#pragma once

#include "CheckSupport.h"

namespace clang::tidy::placement {

// placement-non-leaf-parameter: the copy that a move made of a tensor that
// requires grad, used as a parameter. See
// docs/rules/placement-non-leaf-parameter.md.
class NonLeafParameterCheck : public PlacementCheck {
public:
  NonLeafParameterCheck(StringRef Name, ClangTidyContext *Context)
      : PlacementCheck(Name, Context) {}

private:
  void report(const placelint::analysis::RecordedFindings &Findings) override;
};

} // namespace clang::tidy::placement
