// Line-independent identities for findings, used by the baseline and by
// SARIF partialFingerprints: rule + file (relative to the source root) +
// the normalised text of the flagged statement + an occurrence index that
// tells identical statements in one file apart. Edits above a finding shift
// its line but leave its fingerprint alone.
#pragma once

#include "Finding.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace placelint::tool {

// The statement around Offset: from the previous ';', '{' or '}' outside
// parentheses to the next one, comments dropped, whitespace collapsed.
std::string normalisedStatement(llvm::StringRef Code, unsigned Offset);

// Sets Finding::Fingerprint on every finding; deterministic for a given set.
void assignFingerprints(std::vector<Finding> &Findings, llvm::StringRef SourceRoot);

} // namespace placelint::tool
