#include "Emitters.h"

#include "placelint/rules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <map>

namespace placelint::tool {

namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral kSrcRoot = "%SRCROOT%";
constexpr llvm::StringLiteral kFingerprintKey = "placelint/v1";

// RFC 3986: keep unreserved characters and '/', percent-encode the rest.
std::string uriEncode(llvm::StringRef Path) {
  std::string Result;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Result += C;
    else
      Result += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Result;
}

std::string fileUri(llvm::StringRef AbsolutePath) { return "file://" + uriEncode(AbsolutePath); }

json::Object artifactLocation(llvm::StringRef File, llvm::StringRef Root) {
  std::string Relative = relativeTo(File, Root);
  if (Relative.empty())
    return json::Object{{"uri", fileUri(absolutePath(File))}};
  return json::Object{{"uri", uriEncode(Relative)}, {"uriBaseId", kSrcRoot}};
}

// SARIF columns count UTF-16 code units by default; clang's count bytes.
unsigned utf16Column(const SourceLocation &L, SourceCache &Sources) {
  const SourceFile *Source = Sources.get(L.File);
  if (!Source || L.Column == 0)
    return L.Column;
  llvm::StringRef Prefix = Source->lineText(L.Line).take_front(L.Column - 1);
  if (Prefix.size() + 1 != L.Column)
    return L.Column;
  llvm::SmallVector<llvm::UTF16> Units;
  if (!llvm::convertUTF8ToUTF16String(Prefix, Units))
    return L.Column;
  return Units.size() + 1;
}

json::Object physicalLocation(const SourceLocation &L, llvm::StringRef Root,
                              SourceCache &Sources) {
  return json::Object{
      {"artifactLocation", artifactLocation(L.File, Root)},
      {"region", json::Object{{"startLine", L.Line}, {"startColumn", utf16Column(L, Sources)}}}};
}

std::string helpUri(llvm::StringRef Id) { return (PL_RULE_DOCS_URL + Id + ".md").str(); }

json::Array ruleDescriptors(const RunReport &Report, std::map<std::string, size_t> &Indices) {
  json::Array Rules;
  for (const RuleInfo &Info : kRules) {
    std::string Id(Info.id), Title(Info.title), Summary(Info.summary);
    Indices[Id] = Rules.size();
    std::string Uri = helpUri(Id);
    Rules.push_back(json::Object{
        {"id", Id},
        {"shortDescription", json::Object{{"text", Title}}},
        {"fullDescription", json::Object{{"text", Summary}}},
        {"help", json::Object{{"text", Summary + " See " + Uri},
                              {"markdown", Summary + " See [the rule's documentation](" + Uri +
                                               ")."}}},
        {"helpUri", Uri},
        {"defaultConfiguration", json::Object{{"level", "warning"}}}});
  }
  // Checks outside the catalogue (other clang-tidy checks a configuration
  // enabled) still need a descriptor for their results to refer to.
  for (const Finding &F : Report.Findings)
    if (Indices.try_emplace(F.Rule, Rules.size()).second)
      Rules.push_back(json::Object{{"id", F.Rule}});
  return Rules;
}

json::Object fix(const Finding &F, llvm::StringRef Root) {
  std::map<std::string, json::Array> ByFile;
  for (const Edit &E : F.Fixes)
    ByFile[E.File].push_back(json::Object{
        {"deletedRegion", json::Object{{"byteOffset", E.Offset}, {"byteLength", E.Length}}},
        {"insertedContent", json::Object{{"text", E.Text}}}});
  json::Array Changes;
  for (auto &[File, Replacements] : ByFile)
    Changes.push_back(json::Object{{"artifactLocation", artifactLocation(File, Root)},
                                   {"replacements", std::move(Replacements)}});
  return json::Object{{"description", json::Object{{"text", "apply the suggested fix"}}},
                      {"artifactChanges", std::move(Changes)}};
}

json::Object result(const Finding &F, size_t RuleIndex, llvm::StringRef Root,
                    SourceCache &Sources) {
  json::Object Result{{"ruleId", F.Rule},
                      {"ruleIndex", static_cast<int64_t>(RuleIndex)},
                      {"level", severityName(F.Level)},
                      {"message", json::Object{{"text", F.Message}}},
                      {"partialFingerprints", json::Object{{kFingerprintKey, F.Fingerprint}}}};
  if (F.Location)
    Result["locations"] =
        json::Array{json::Object{{"physicalLocation", physicalLocation(*F.Location, Root, Sources)}}};
  if (!F.Notes.empty()) {
    json::Array Related;
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      json::Object Location{{"id", static_cast<int64_t>(I)},
                            {"message", json::Object{{"text", F.Notes[I].Message}}}};
      if (F.Notes[I].Location)
        Location["physicalLocation"] = physicalLocation(*F.Notes[I].Location, Root, Sources);
      Related.push_back(std::move(Location));
    }
    Result["relatedLocations"] = std::move(Related);
  }
  if (!F.Fixes.empty())
    Result["fixes"] = json::Array{fix(F, Root)};
  return Result;
}

json::Object toolNotification(const Notification &N, llvm::StringRef Root,
                              SourceCache &Sources) {
  json::Object Obj{{"level", "error"},
                   {"message", json::Object{{"text", N.Message}}},
                   {"descriptor", json::Object{{"id", notificationKindName(N.Kind)}}}};
  json::Object Location = N.Location
                              ? physicalLocation(*N.Location, Root, Sources)
                              : json::Object{{"artifactLocation", artifactLocation(N.File, Root)}};
  Obj["locations"] = json::Array{json::Object{{"physicalLocation", std::move(Location)}}};
  return Obj;
}

} // namespace

void emitSarif(const RunReport &Report, SourceCache &Sources, llvm::raw_ostream &OS) {
  std::map<std::string, size_t> RuleIndices;
  json::Array Rules = ruleDescriptors(Report, RuleIndices);
  json::Array Results;
  for (const Finding &F : Report.Findings)
    Results.push_back(result(F, RuleIndices[F.Rule], Report.SourceRoot, Sources));
  json::Array Notifications;
  for (const Notification &N : Report.Notifications)
    Notifications.push_back(toolNotification(N, Report.SourceRoot, Sources));
  std::string RootUri = fileUri(absolutePath(Report.SourceRoot));
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += '/';
  json::Object Run{
      {"tool", json::Object{{"driver", json::Object{{"name", "placelint"},
                                                    {"version", PL_VERSION},
                                                    {"semanticVersion", PL_VERSION},
                                                    {"informationUri", PL_PROJECT_URL},
                                                    {"rules", std::move(Rules)}}}}},
      {"originalUriBaseIds", json::Object{{kSrcRoot, json::Object{{"uri", RootUri}}}}},
      {"invocations",
       json::Array{json::Object{{"executionSuccessful", Report.FilesFailed == 0},
                                {"toolExecutionNotifications", std::move(Notifications)}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(Results)}};
  // The units a changed-only run skipped, as run properties: they are no
  // results and nothing went wrong with them.
  if (!Report.Changes.empty()) {
    json::Array Unchanged;
    for (const std::string &File : Report.Unchanged)
      Unchanged.push_back(artifactLocation(File, Report.SourceRoot));
    Run["properties"] = json::Object{{"changes", Report.Changes},
                                     {"unchangedUnits", std::move(Unchanged)}};
  }
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}\n", json::Value(std::move(Log)));
}

} // namespace placelint::tool
