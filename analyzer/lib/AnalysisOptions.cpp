// The option values the checks hand the analysis (AnalysisOptions), parsed
// apart from the API model so that they can be tested and fuzzed without
// an AST (fuzz/check_options_fuzzer.cpp).
#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/StringSwitch.h"

namespace placelint::analysis {

std::optional<ApiProfile> parseApiProfile(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ApiProfile>>(Name)
      .Case("auto", ApiProfile::Auto)
      .Case("pl", ApiProfile::Pl)
      .Case("libtorch", ApiProfile::Libtorch)
      .Default(std::nullopt);
}

llvm::StringRef apiProfileName(ApiProfile Profile) {
  switch (Profile) {
  case ApiProfile::Auto:
    return "auto";
  case ApiProfile::Pl:
    return "pl";
  case ApiProfile::Libtorch:
    return "libtorch";
  }
  return "auto";
}

std::optional<std::pair<std::string, unsigned>>
ApiModel::parseGpuTestSuffix(llvm::StringRef Entry) {
  auto [Suffix, Count] = Entry.trim().split('=');
  Suffix = Suffix.trim();
  unsigned Devices = 1;
  if (Suffix.empty() || Suffix.contains_insensitive(' ') ||
      (Entry.contains('=') && (Count.trim().getAsInteger(10, Devices) || Devices == 0)))
    return std::nullopt;
  return std::pair{Suffix.str(), Devices};
}

} // namespace placelint::analysis
