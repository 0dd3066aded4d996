#include "Baseline.h"

#include "SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace placelint::tool {

namespace json = llvm::json;

namespace {

constexpr int kBaselineVersion = 1;

} // namespace

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read baseline '%s': %s",
                                   Path.str().c_str(), Buffer.getError().message().c_str());
  llvm::Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return llvm::createStringError("baseline '%s' is not JSON: %s", Path.str().c_str(),
                                   llvm::toString(Parsed.takeError()).c_str());
  const json::Object *Root = Parsed->getAsObject();
  const json::Array *Entries = Root ? Root->getArray("findings") : nullptr;
  if (!Root || Root->getInteger("version") != kBaselineVersion || !Entries)
    return llvm::createStringError(
        "baseline '%s' is not a placelint baseline (version %d with a \"findings\" array)",
        Path.str().c_str(), kBaselineVersion);
  Baseline Result;
  for (const json::Value &Entry : *Entries) {
    const json::Object *Obj = Entry.getAsObject();
    std::optional<llvm::StringRef> Fingerprint = Obj ? Obj->getString("fingerprint") : std::nullopt;
    if (!Fingerprint)
      return llvm::createStringError("baseline '%s': an entry has no \"fingerprint\"",
                                     Path.str().c_str());
    Result.Fingerprints.insert(Fingerprint->str());
  }
  return Result;
}

llvm::Error Baseline::write(llvm::StringRef Path, const RunReport &Report) {
  json::Array Entries;
  for (const Finding &F : Report.Findings)
    Entries.push_back(json::Object{
        {"fingerprint", F.Fingerprint},
        {"rule", F.Rule},
        {"file", F.Location ? displayPath(F.Location->File, Report.SourceRoot) : ""},
        {"message", F.Message}});
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write baseline '%s': %s", Path.str().c_str(),
                                   EC.message().c_str());
  Out << llvm::formatv(
      "{0:2}\n", json::Value(json::Object{{"version", kBaselineVersion},
                                          {"tool", "placelint"},
                                          {"findings", std::move(Entries)}}));
  return llvm::Error::success();
}

void Baseline::hide(RunReport &Report) const {
  size_t Before = Report.Findings.size();
  llvm::erase_if(Report.Findings,
                 [&](const Finding &F) { return Fingerprints.count(F.Fingerprint) != 0; });
  Report.HiddenByBaseline += Before - Report.Findings.size();
}

} // namespace placelint::tool
