// The option values the placement checks parse themselves (CheckSupport.cpp,
// UnguardedCudaCheck.cpp, ApiModel): ApiProfile through parseApiProfile, and
// each entry of the ;-separated GpuTestSuffixes (split by clang-tidy's
// parseStringList, as the checks do) through ApiModel::parseGpuTestSuffix.
// AvailabilityChecks entries are names used as written, and the boolean
// options are parsed by clang-tidy's own OptionsView: nothing of ours. An accepted suffix entry is one a test name can end
// with, and its canonical spelling "suffix=N" parses to the same entry.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "clang-tidy/utils/OptionsUtils.h"
#include "placelint/analysis/ApiModel.h"

namespace {

using placelint::analysis::ApiModel;

void require(bool Condition, const char *What, llvm::StringRef Entry) {
  if (!Condition) {
    std::fprintf(stderr, "check_options: %s for '%s'\n", What, Entry.str().c_str());
    std::abort();
  }
}

void fuzzGpuTestSuffixes(llvm::StringRef Value) {
  for (llvm::StringRef Entry : clang::tidy::utils::options::parseStringList(Value)) {
    auto Parsed = ApiModel::parseGpuTestSuffix(Entry);
    if (!Parsed)
      continue;
    const auto &[Suffix, Devices] = *Parsed;
    require(!Suffix.empty(), "an empty suffix is accepted", Entry);
    require(Devices >= 1, "a suffix ensuring no GPU is accepted", Entry);
    require(llvm::StringRef(Suffix).find_first_of(" =") == llvm::StringRef::npos,
            "a suffix no identifier ends with is accepted", Entry);
    const std::string Canonical = Suffix + "=" + std::to_string(Devices);
    require(ApiModel::parseGpuTestSuffix(Canonical) == Parsed,
            "the canonical spelling parses differently", Entry);
  }
}

void fuzzApiProfile(llvm::StringRef Value) {
  if (auto Profile = placelint::analysis::parseApiProfile(Value))
    require(placelint::analysis::apiProfileName(*Profile) == Value,
            "a profile is accepted under another name", Value);
}

} // namespace

// The first byte picks the option, the rest is its value.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  if (Size == 0)
    return 0;
  const llvm::StringRef Value(reinterpret_cast<const char *>(Data + 1), Size - 1);
  if (Data[0] % 2 == 0)
    fuzzApiProfile(Value);
  else
    fuzzGpuTestSuffixes(Value);
  return 0;
}
