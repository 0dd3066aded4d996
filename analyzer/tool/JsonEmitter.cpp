#include "Emitters.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace placelint::tool {

namespace json = llvm::json;

namespace {

json::Value location(const SourceLocation &L, llvm::StringRef Root) {
  return json::Object{{"file", displayPath(L.File, Root)},
                      {"line", L.Line},
                      {"column", L.Column},
                      {"offset", L.Offset}};
}

json::Value finding(const Finding &F, llvm::StringRef Root) {
  json::Object Obj{{"rule", F.Rule},
                   {"level", severityName(F.Level)},
                   {"message", F.Message},
                   {"fingerprint", F.Fingerprint}};
  if (F.Location)
    Obj["location"] = location(*F.Location, Root);
  json::Array Notes;
  for (const Note &N : F.Notes) {
    json::Object Note{{"message", N.Message}};
    if (N.Location)
      Note["location"] = location(*N.Location, Root);
    Notes.push_back(std::move(Note));
  }
  Obj["notes"] = std::move(Notes);
  json::Array Fixes;
  for (const Edit &E : F.Fixes)
    Fixes.push_back(json::Object{{"file", displayPath(E.File, Root)},
                                 {"offset", E.Offset},
                                 {"length", E.Length},
                                 {"replacement", E.Text}});
  Obj["fixes"] = std::move(Fixes);
  return Obj;
}

} // namespace

void emitJson(const RunReport &Report, llvm::raw_ostream &OS) {
  json::Array Findings, Notifications;
  for (const Finding &F : Report.Findings)
    Findings.push_back(finding(F, Report.SourceRoot));
  for (const Notification &N : Report.Notifications) {
    json::Object Obj{{"kind", notificationKindName(N.Kind)},
                     {"file", displayPath(N.File, Report.SourceRoot)},
                     {"message", N.Message}};
    if (N.Location)
      Obj["location"] = location(*N.Location, Report.SourceRoot);
    Notifications.push_back(std::move(Obj));
  }
  json::Array Files;
  for (const std::string &File : Report.Files)
    Files.push_back(displayPath(File, Report.SourceRoot));
  json::Array Unchanged;
  for (const std::string &File : Report.Unchanged)
    Unchanged.push_back(displayPath(File, Report.SourceRoot));
  json::Object ByRule;
  for (const auto &[Rule, Count] : Report.countsByRule())
    ByRule[Rule] = Count;
  json::Object Document{
      {"tool", json::Object{{"name", "placelint"}, {"version", PL_VERSION}}},
      {"sourceRoot", Report.SourceRoot},
      {"files", std::move(Files)},
      {"findings", std::move(Findings)},
      {"notifications", std::move(Notifications)},
      {"unchanged", std::move(Unchanged)},
      {"summary", json::Object{{"findings", static_cast<int64_t>(Report.Findings.size())},
                               {"byRule", std::move(ByRule)},
                               {"filesAnalysed", Report.FilesAnalysed},
                               {"filesFailed", Report.FilesFailed},
                               {"filesFromCache", Report.FilesFromCache},
                               {"filesUnchanged", static_cast<int64_t>(Report.Unchanged.size())},
                               {"hiddenByBaseline", Report.HiddenByBaseline}}}};
  if (!Report.Changes.empty())
    Document["changes"] = Report.Changes;
  OS << llvm::formatv("{0:2}\n", json::Value(std::move(Document)));
}

} // namespace placelint::tool
