// Runs clang-tidy's machinery in this process over one translation unit and
// turns its diagnostics into the finding model. Only worker processes call
// analyzeUnit, so that a crash costs one translation unit, not the run.
#pragma once

#include "Finding.h"

#include "placelint/rules.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace placelint::tool {

// The clang-tidy configuration flags, as clang-tidy's own command line
// has them; unset ones defer to .clang-tidy files and the defaults.
struct TidySettings {
  std::optional<std::string> Checks;
  std::optional<std::string> Config;
  std::optional<std::string> ConfigFile;
  std::optional<std::string> HeaderFilter;
  // Used when neither --header-filter nor a .clang-tidy file sets one.
  std::string DefaultHeaderFilter;
};

// Checks enabled when nothing else says otherwise: all of the catalogue's.
inline constexpr llvm::StringLiteral kDefaultChecks = "-*," PL_RULE_PREFIX "*";

// Mirrors clang-tidy's own precedence: defaults < .clang-tidy files (or
// --config / --config-file) < command-line overrides.
llvm::Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>>
createOptionsProvider(const TidySettings &Settings);

// The checks that the configuration enables for File.
llvm::Expected<std::vector<std::string>> enabledChecks(const TidySettings &Settings,
                                                       llvm::StringRef File);

// Args with clang's builtin headers (stddef.h, ...) taken from the clang
// this tool was built against, unless they already name a -resource-dir.
std::vector<std::string> withResourceDir(std::vector<std::string> Args);

// Analyses File with the command that Database holds for it.
UnitReport analyzeUnit(std::unique_ptr<clang::tooling::CompilationDatabase> Database,
                       llvm::StringRef File, const TidySettings &Settings);

} // namespace placelint::tool
