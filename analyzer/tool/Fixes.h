// Fix-its through clang's replacement machinery: applied in place, or
// exported as clang-tidy's YAML (what clang-apply-replacements reads).
#pragma once

#include "Report.h"

#include "llvm/Support/Error.h"

namespace placelint::tool {

struct FixOutcome {
  unsigned Applied = 0;
  unsigned Suggested = 0; // findings that carry a fix
};

// Applies every finding's fix unless it overlaps one already taken (then
// that finding's whole fix is skipped, never half applied).
llvm::Expected<FixOutcome> applyFixes(const RunReport &Report);

llvm::Error exportFixes(const RunReport &Report, llvm::StringRef Path);

} // namespace placelint::tool
