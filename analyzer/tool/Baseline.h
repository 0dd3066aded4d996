// Accepted findings, recorded so that a large tree can adopt placelint and
// fail CI on new findings only. A baseline is a JSON file of fingerprints
// (see Fingerprint.h), with rule, file and message kept for reviewers.
#pragma once

#include "Report.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>

namespace placelint::tool {

class Baseline {
public:
  static llvm::Expected<Baseline> load(llvm::StringRef Path);
  static llvm::Error write(llvm::StringRef Path, const RunReport &Report);

  // Removes the recorded findings from Report and counts them.
  void hide(RunReport &Report) const;

private:
  std::set<std::string> Fingerprints;
};

} // namespace placelint::tool
