#include "Report.h"

#include "Fingerprint.h"

#include "llvm/ADT/STLExtras.h"

#include <set>
#include <tuple>

namespace placelint::tool {

std::map<std::string, unsigned> RunReport::countsByRule() const {
  std::map<std::string, unsigned> Counts;
  for (const Finding &F : Findings)
    ++Counts[F.Rule];
  return Counts;
}

namespace {

bool unitFailed(const UnitReport &Unit) { return !Unit.Notifications.empty(); }

} // namespace

RunReport combineUnits(std::vector<UnitReport> Units, std::string SourceRoot) {
  RunReport Report;
  Report.SourceRoot = std::move(SourceRoot);
  using Key = std::tuple<std::string, std::string, unsigned, std::string>;
  std::set<Key> Seen;
  for (UnitReport &Unit : Units) {
    bool Failed = unitFailed(Unit);
    Report.Files.push_back(Unit.File);
    ++(Failed ? Report.FilesFailed : Report.FilesAnalysed);
    Report.FilesFromCache += Unit.FromCache;
    for (Finding &F : Unit.Findings) {
      Key Identity{F.Rule, F.Location ? F.Location->File : "", F.Location ? F.Location->Offset : 0,
                   F.Message};
      if (!Seen.insert(std::move(Identity)).second)
        continue;
      if (Failed)
        F.Fixes.clear();
      Report.Findings.push_back(std::move(F));
    }
    llvm::append_range(Report.Notifications, std::move(Unit.Notifications));
  }
  assignFingerprints(Report.Findings, Report.SourceRoot);
  return Report;
}

std::string summaryLine(const RunReport &Report) {
  std::string Line = "placelint: ";
  if (Report.Findings.empty()) {
    Line += "no findings";
  } else {
    Line += std::to_string(Report.Findings.size()) +
            (Report.Findings.size() == 1 ? " finding (" : " findings (");
    bool First = true;
    for (const auto &[Rule, Count] : Report.countsByRule()) {
      Line += (First ? "" : ", ") + Rule + ": " + std::to_string(Count);
      First = false;
    }
    Line += ")";
  }
  if (Report.HiddenByBaseline)
    Line += ", " + std::to_string(Report.HiddenByBaseline) + " hidden by the baseline";
  Line += "; " + std::to_string(Report.FilesAnalysed) +
          (Report.FilesAnalysed == 1 ? " file analysed" : " files analysed");
  if (Report.FilesFromCache)
    Line += " (" + std::to_string(Report.FilesFromCache) + " from the cache)";
  Line += ", " + std::to_string(Report.FilesFailed) + " failed";
  if (!Report.Unchanged.empty())
    Line += ", " + std::to_string(Report.Unchanged.size()) + " skipped as unchanged";
  return Line;
}

} // namespace placelint::tool
