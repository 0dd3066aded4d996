// The result of a whole run: findings of every unit, de-duplicated (a
// header included by many units is reported once) and fingerprinted, the
// notifications of units that could not be analysed, and the counts for
// the summary line.
#pragma once

#include "Finding.h"

#include <map>
#include <string>
#include <vector>

namespace placelint::tool {

struct RunReport {
  std::string SourceRoot;
  std::vector<std::string> Files; // the translation units of the run, in order
  std::vector<Finding> Findings;
  std::vector<Notification> Notifications;
  unsigned FilesAnalysed = 0;
  unsigned FilesFailed = 0;
  unsigned HiddenByBaseline = 0;
  unsigned FilesFromCache = 0; // of FilesAnalysed
  // Units of the selection skipped because they read no changed file, and
  // where the changes came from ("git diff REF", "--files-from LIST");
  // Changes is empty when the run analysed every selected unit.
  std::vector<std::string> Unchanged;
  std::string Changes;

  std::map<std::string, unsigned> countsByRule() const;
};

// Fixes of findings in a unit that does not compile are dropped: they were
// computed from a broken AST (clang-tidy likewise needs -fix-errors).
RunReport combineUnits(std::vector<UnitReport> Units, std::string SourceRoot);

// "placelint: 3 findings (placement-mixed-device: 2, ...); 4 files analysed, 1 failed"
std::string summaryLine(const RunReport &Report);

} // namespace placelint::tool
