// What the placelint driver reads back from files: a baseline
// (Baseline::load), the SARIF logs of `placelint merge` (mergeSarif) and the
// per-unit reports its workers write (parseUnitReport). The first byte picks
// the reader, the rest is the file. Bad input must be an llvm::Error, never
// a crash; what is accepted must survive a second trip (a unit report
// re-serialised reads back the same, a merged log merges again to the same
// results).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "Baseline.h"
#include "Finding.h"
#include "Merge.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace {

using namespace placelint::tool;

// The readers take paths: one scratch directory per process holds the input
// and the merged output.
struct Scratch {
  Scratch() {
    llvm::SmallString<128> Dir;
    if (llvm::sys::fs::createUniqueDirectory("placelint-fuzz", Dir)) {
      std::fprintf(stderr, "tool_readers: cannot create a scratch directory\n");
      std::abort();
    }
    Input = (Dir + "/input.json").str();
    Output = (Dir + "/merged.sarif").str();
    Remerged = (Dir + "/remerged.sarif").str();
    Directory = Dir.str().str();
  }
  ~Scratch() {
    for (const std::string &File : {Input, Output, Remerged})
      llvm::sys::fs::remove(File);
    llvm::sys::fs::remove(Directory);
  }
  std::string Input, Output, Remerged, Directory;
};

const Scratch &scratch() {
  static const Scratch Instance;
  return Instance;
}

void writeFile(const std::string &Path, llvm::StringRef Contents) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (EC) {
    std::fprintf(stderr, "tool_readers: cannot write %s\n", Path.c_str());
    std::abort();
  }
  Out << Contents;
}

void require(bool Condition, const char *What) {
  if (!Condition) {
    std::fprintf(stderr, "tool_readers: %s\n", What);
    std::abort();
  }
}

std::string serialize(const UnitReport &Report) {
  std::string Text;
  llvm::raw_string_ostream(Text) << toJSON(Report);
  return Text;
}

void fuzzBaseline(llvm::StringRef Contents) {
  writeFile(scratch().Input, Contents);
  llvm::Expected<Baseline> Loaded = Baseline::load(scratch().Input);
  if (!Loaded) {
    llvm::consumeError(Loaded.takeError());
    return;
  }
  RunReport Report;
  Report.Findings.push_back(Finding{});
  Loaded->hide(Report);
  require(Report.Findings.size() + Report.HiddenByBaseline == 1, "hide lost a finding");
}

void fuzzMerge(llvm::StringRef Contents) {
  writeFile(scratch().Input, Contents);
  // The same log twice: every result of the second copy is a duplicate.
  llvm::Expected<MergeOutcome> Merged =
      mergeSarif(scratch().Output, {scratch().Input, scratch().Input});
  if (!Merged) {
    llvm::consumeError(Merged.takeError());
    return;
  }
  llvm::Expected<MergeOutcome> Again = mergeSarif(scratch().Remerged, {scratch().Output});
  require(static_cast<bool>(Again), "a merged log does not merge again");
  require(Again->Results == Merged->Results, "merging a merged log changed its results");
}

void fuzzUnitReport(llvm::StringRef Contents) {
  llvm::Expected<UnitReport> Parsed = parseUnitReport(Contents);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return;
  }
  const std::string Written = serialize(*Parsed);
  llvm::Expected<UnitReport> Reread = parseUnitReport(Written);
  require(static_cast<bool>(Reread), "a written unit report does not read back");
  require(serialize(*Reread) == Written, "a unit report changed on its way through JSON");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  if (Size == 0)
    return 0;
  const llvm::StringRef Contents(reinterpret_cast<const char *>(Data + 1), Size - 1);
  switch (Data[0] % 3) {
  case 0:
    fuzzBaseline(Contents);
    break;
  case 1:
    fuzzMerge(Contents);
    break;
  case 2:
    fuzzUnitReport(Contents);
    break;
  }
  return 0;
}
