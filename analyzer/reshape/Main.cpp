// placelint-reshape: rewrites an annotated program (`// expect:` markers) in
// meaning-preserving ways, so that the analyzer can be asked to keep every
// finding on every variant and to find nothing on variants of correct code.
//
//   placelint-reshape SEED.cpp -o OUTDIR [--transforms a,b,...] [--pairs]
//                     [--pair-sample N] -- COMPILE_FLAGS
//
// Each variant compiles (it is parsed with COMPILE_FLAGS under the seed's
// path) or it is dropped and counted against its transform. OUTDIR gets the
// variants, SEED_STEM.<transforms>.cpp, and SEED_STEM.reshape.json listing
// them, the drops with their first error, and the transforms that found no
// site.
#include "Transforms.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>

namespace {

namespace cl = llvm::cl;
using namespace placelint::reshape;

cl::OptionCategory Category("placelint-reshape options");
cl::opt<std::string> SeedPath(cl::Positional, cl::desc("<seed.cpp>"), cl::Required, cl::cat(Category));
cl::opt<std::string> OutputDirectory("o", cl::desc("directory the variants are written to"),
                                     cl::value_desc("dir"), cl::cat(Category));
cl::list<std::string> Selected("transforms", cl::desc("transforms to apply (default: all)"), cl::CommaSeparated,
                               cl::cat(Category));
cl::opt<bool> Pairs("pairs", cl::desc("also apply every ordered pair of the transforms, one after the other"),
                    cl::cat(Category));
cl::opt<unsigned> PairSample("pair-sample",
                             cl::desc("with --pairs, only this many pairs, chosen by a hash of the seed's name"),
                             cl::init(0), cl::cat(Category));
cl::opt<bool> List("list", cl::desc("list the transforms and exit"), cl::cat(Category));

struct Outcome {
  unsigned Written = 0, Dropped = 0, NotApplicable = 0;
};

class Reshaper {
public:
  Reshaper(std::string Seed, std::vector<std::string> Flags, std::string Directory)
      : SeedFile(std::move(Seed)), Flags(std::move(Flags)), Directory(std::move(Directory)) {
    Stem = llvm::sys::path::stem(SeedFile).str();
  }

  /// Applies Chain's last transform to Base; returns the variant when it was
  /// written.
  std::unique_ptr<Program> apply(const Program &Base, const std::vector<const Transform *> &Chain) {
    std::vector<std::string> Names;
    for (const Transform *T : Chain)
      Names.push_back(T->Name);
    std::string Label = llvm::join(Names, "+");
    Outcome &Counted = Outcomes[Label];
    Edit E(Base);
    if (!Chain.back()->Apply(E, findSites(Base))) {
      ++Counted.NotApplicable;
      NotApplicable.push_back(Label);
      return nullptr;
    }
    std::string Code = E.result(llvm::join(Names, " then ") + " of " +
                                llvm::sys::path::filename(SeedFile).str());
    std::string Error;
    std::unique_ptr<Program> Variant = Program::parse(Code, SeedFile, Flags, Error);
    if (!Variant) {
      ++Counted.Dropped;
      Drops.push_back(llvm::json::Object{{"transforms", Label}, {"error", Error}});
      return nullptr;
    }
    std::string File = Stem + "." + Label + ".cpp";
    std::error_code Failed;
    llvm::raw_fd_ostream Out(Directory + "/" + File, Failed);
    if (Failed) {
      llvm::WithColor::error() << "cannot write " << Directory << "/" << File << ": " << Failed.message() << "\n";
      WriteFailed = true;
      return nullptr;
    }
    Out << Code;
    ++Counted.Written;
    Variants.push_back(llvm::json::Object{{"file", File}, {"transforms", llvm::json::Array(Names)}});
    return Variant;
  }

  bool writeManifest(unsigned Sites) {
    llvm::json::Object Manifest{{"seed", SeedFile},
                                {"flags", llvm::json::Array(Flags)},
                                {"sites", Sites},
                                {"variants", std::move(Variants)},
                                {"dropped", std::move(Drops)},
                                {"not_applicable", llvm::json::Array(NotApplicable)}};
    std::error_code Failed;
    llvm::raw_fd_ostream Out(Directory + "/" + Stem + ".reshape.json", Failed);
    if (Failed) {
      llvm::WithColor::error() << "cannot write the manifest in " << Directory << ": " << Failed.message() << "\n";
      return false;
    }
    Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(Manifest))) << "\n";
    return !WriteFailed;
  }

  void printSummary(llvm::raw_ostream &OS) const {
    unsigned Written = 0, Dropped = 0;
    for (const auto &[Label, Counted] : Outcomes) {
      Written += Counted.Written;
      Dropped += Counted.Dropped;
    }
    OS << llvm::sys::path::filename(SeedFile) << ": " << Written << " variants written, " << Dropped
       << " dropped (do not compile), " << NotApplicable.size() << " transforms without a site\n";
    for (const auto &[Label, Counted] : Outcomes)
      if (Counted.Dropped)
        OS << "  dropped: " << Label << "\n";
  }

private:
  std::string SeedFile, Stem;
  std::vector<std::string> Flags;
  std::string Directory;
  std::map<std::string, Outcome> Outcomes;
  llvm::json::Array Variants, Drops;
  std::vector<std::string> NotApplicable;
  bool WriteFailed = false;
};

std::vector<const Transform *> chosenTransforms(bool &Unknown) {
  std::vector<const Transform *> Chosen;
  for (const Transform &T : transforms())
    if (Selected.empty() || llvm::is_contained(Selected, T.Name))
      Chosen.push_back(&T);
  for (const std::string &Name : Selected)
    if (std::none_of(transforms().begin(), transforms().end(), [&](const Transform &T) { return T.Name == Name; })) {
      llvm::WithColor::error() << "no transform named '" << Name << "' (--list names them)\n";
      Unknown = true;
    }
  return Chosen;
}

} // namespace

int main(int argc, const char **argv) {
  llvm::InitLLVM Init(argc, argv);
  // Everything after `--` is the compile command's flags.
  std::vector<const char *> Own;
  std::vector<std::string> Flags;
  bool AfterDash = false;
  for (int I = 0; I < argc; ++I) {
    if (!AfterDash && llvm::StringRef(argv[I]) == "--") {
      AfterDash = true;
      continue;
    }
    if (AfterDash)
      Flags.push_back(argv[I]);
    else
      Own.push_back(argv[I]);
  }
  if (std::find(Own.begin(), Own.end(), llvm::StringRef("--list")) != Own.end()) {
    for (const Transform &T : transforms())
      llvm::outs() << llvm::left_justify(T.Name, 24) << T.Summary << "\n";
    return 0;
  }
  cl::HideUnrelatedOptions(Category);
  if (!cl::ParseCommandLineOptions(Own.size(), Own.data(), "rewrites an annotated program in meaning-preserving ways"))
    return 2;
  if (OutputDirectory.empty()) {
    llvm::WithColor::error() << "-o OUTDIR is required\n";
    return 2;
  }
  bool Unknown = false;
  std::vector<const Transform *> Chosen = chosenTransforms(Unknown);
  if (Unknown)
    return 2;

  auto Seed = llvm::MemoryBuffer::getFile(SeedPath);
  if (!Seed) {
    llvm::WithColor::error() << "cannot read " << SeedPath << ": " << Seed.getError().message() << "\n";
    return 2;
  }
  llvm::SmallString<256> Absolute(SeedPath);
  llvm::sys::fs::make_absolute(Absolute);
  Flags.push_back("-resource-dir=" PL_CLANG_RESOURCE_DIR);
  std::string Error;
  std::unique_ptr<Program> SeedProgram = Program::parse((*Seed)->getBuffer().str(), Absolute.str().str(), Flags, Error);
  if (!SeedProgram) {
    llvm::WithColor::error() << SeedPath << ":" << Error << "\n";
    return 2;
  }
  if (std::error_code Failed = llvm::sys::fs::create_directories(OutputDirectory)) {
    llvm::WithColor::error() << "cannot create " << OutputDirectory << ": " << Failed.message() << "\n";
    return 2;
  }

  // Which second transforms follow each first one.
  std::map<const Transform *, std::vector<const Transform *>> Then;
  if (Pairs) {
    std::vector<std::pair<uint64_t, std::pair<const Transform *, const Transform *>>> All;
    for (const Transform *First : Chosen)
      for (const Transform *Second : Chosen)
        if (First != Second)
          All.push_back({llvm::xxh3_64bits(llvm::sys::path::filename(SeedPath).str() + First->Name + "+" +
                                           Second->Name),
                         {First, Second}});
    std::sort(All.begin(), All.end(), [](const auto &A, const auto &B) { return A.first < B.first; });
    if (PairSample && All.size() > PairSample)
      All.resize(PairSample);
    for (const auto &[Hash, Pair] : All)
      Then[Pair.first].push_back(Pair.second);
  }

  Reshaper R(Absolute.str().str(), Flags, OutputDirectory);
  for (const Transform *First : Chosen) {
    std::unique_ptr<Program> Variant = R.apply(*SeedProgram, {First});
    if (!Variant)
      continue;
    for (const Transform *Second : Then[First])
      R.apply(*Variant, {First, Second});
  }
  R.printSummary(llvm::outs());
  return R.writeManifest(findSites(*SeedProgram).size()) ? 0 : 1;
}
