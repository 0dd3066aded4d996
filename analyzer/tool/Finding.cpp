#include "Finding.h"

#include <limits>

namespace placelint::tool {

namespace json = llvm::json;

bool Finding::isCompilerError() const {
  return Level == Severity::Error && llvm::StringRef(Rule).starts_with("clang-diagnostic-");
}

llvm::StringRef severityName(Severity Level) {
  return Level == Severity::Error ? "error" : "warning";
}

llvm::StringRef notificationKindName(NotificationKind Kind) {
  switch (Kind) {
  case NotificationKind::CompileError:
    return "compile-error";
  case NotificationKind::Crash:
    return "crash";
  case NotificationKind::ToolError:
    return "tool-error";
  }
  llvm_unreachable("unknown notification kind");
}

json::Value toJSON(const SourceLocation &L) {
  return json::Object{{"file", L.File}, {"offset", L.Offset}, {"line", L.Line}, {"column", L.Column}};
}

json::Value toJSON(const Finding &F) {
  json::Array Notes;
  for (const Note &N : F.Notes) {
    json::Object Obj{{"message", N.Message}};
    if (N.Location)
      Obj["location"] = toJSON(*N.Location);
    Notes.push_back(std::move(Obj));
  }
  json::Array Fixes;
  for (const Edit &E : F.Fixes)
    Fixes.push_back(json::Object{
        {"file", E.File}, {"offset", E.Offset}, {"length", E.Length}, {"replacement", E.Text}});
  json::Object Obj{{"rule", F.Rule},          {"level", severityName(F.Level)},
                   {"message", F.Message},    {"notes", std::move(Notes)},
                   {"fixes", std::move(Fixes)}, {"statement", F.Statement}};
  if (F.Location)
    Obj["location"] = toJSON(*F.Location);
  if (!F.Fingerprint.empty())
    Obj["fingerprint"] = F.Fingerprint;
  return Obj;
}

json::Value toJSON(const Notification &N) {
  json::Object Obj{
      {"kind", notificationKindName(N.Kind)}, {"file", N.File}, {"message", N.Message}};
  if (N.Location)
    Obj["location"] = toJSON(*N.Location);
  return Obj;
}

json::Value toJSON(const UnitReport &R) {
  json::Array Findings, Notifications;
  for (const Finding &F : R.Findings)
    Findings.push_back(toJSON(F));
  for (const Notification &N : R.Notifications)
    Notifications.push_back(toJSON(N));
  json::Object Obj{{"file", R.File},
                   {"findings", std::move(Findings)},
                   {"notifications", std::move(Notifications)}};
  if (!R.Inputs.empty()) {
    json::Array Inputs;
    for (const InputFile &Input : R.Inputs)
      Inputs.push_back(json::Object{{"path", Input.Path}, {"sha256", Input.Digest}});
    Obj["inputs"] = std::move(Inputs);
  }
  return Obj;
}

// Found by argument-dependent lookup from llvm::json's templates, so these
// live in this namespace rather than in an anonymous one.
namespace {

// llvm::json reads 64-bit integers; positions are 32-bit like clang's.
bool mapUnsigned(json::ObjectMapper &O, llvm::StringLiteral Key, unsigned &Out) {
  uint64_t Value = 0;
  if (!O.map(Key, Value) || Value > std::numeric_limits<unsigned>::max())
    return false;
  Out = static_cast<unsigned>(Value);
  return true;
}

} // namespace

bool fromJSON(const json::Value &V, SourceLocation &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", L.File) && mapUnsigned(O, "offset", L.Offset) &&
         mapUnsigned(O, "line", L.Line) && mapUnsigned(O, "column", L.Column);
}

bool fromJSON(const json::Value &V, Note &N, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("message", N.Message) && O.mapOptional("location", N.Location);
}

bool fromJSON(const json::Value &V, Edit &E, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", E.File) && mapUnsigned(O, "offset", E.Offset) &&
         mapUnsigned(O, "length", E.Length) && O.map("replacement", E.Text);
}

bool fromJSON(const json::Value &V, Severity &S, json::Path P) {
  std::optional<llvm::StringRef> Name = V.getAsString();
  if (Name && (*Name == "warning" || *Name == "error")) {
    S = *Name == "error" ? Severity::Error : Severity::Warning;
    return true;
  }
  P.report("expected \"warning\" or \"error\"");
  return false;
}

bool fromJSON(const json::Value &V, NotificationKind &K, json::Path P) {
  std::optional<llvm::StringRef> Name = V.getAsString();
  for (NotificationKind Candidate :
       {NotificationKind::CompileError, NotificationKind::Crash, NotificationKind::ToolError})
    if (Name && *Name == notificationKindName(Candidate)) {
      K = Candidate;
      return true;
    }
  P.report("unknown notification kind");
  return false;
}

bool fromJSON(const json::Value &V, Finding &F, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("rule", F.Rule) && O.map("level", F.Level) && O.map("message", F.Message) &&
         O.mapOptional("location", F.Location) && O.map("notes", F.Notes) &&
         O.map("fixes", F.Fixes) && O.map("statement", F.Statement) &&
         O.mapOptional("fingerprint", F.Fingerprint);
}

bool fromJSON(const json::Value &V, Notification &N, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("kind", N.Kind) && O.map("file", N.File) && O.map("message", N.Message) &&
         O.mapOptional("location", N.Location);
}

bool fromJSON(const json::Value &V, InputFile &I, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("path", I.Path) && O.map("sha256", I.Digest);
}

bool fromJSON(const json::Value &V, UnitReport &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", R.File) && O.map("findings", R.Findings) &&
         O.map("notifications", R.Notifications) && O.mapOptional("inputs", R.Inputs);
}

llvm::Expected<UnitReport> parseUnitReport(llvm::StringRef Text) {
  return json::parse<UnitReport>(Text, "unit report");
}

} // namespace placelint::tool
