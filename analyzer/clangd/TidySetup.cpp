// How placelint-clangd changes clangd 19's choice of clang-tidy checks.
//
// clangd takes the checks from the user's .clang-tidy and .clangd files, or
// its own default list where they name none, and then keeps only the checks
// it has timed as fast (.clangd's Diagnostics: ClangTidy: FastCheckFilter,
// Strict by default), which drops every check it has not heard of. Neither
// step can be configured from outside clangd, so the two functions that
// take them are wrapped at link time (CMakeLists.txt): clangd's calls come
// here, and these call clangd's own under the __real_ names.
#include "ShowMessage.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <placelint/rules.h>

#include <optional>
#include <string_view>

namespace clang::clangd {
// As clangd 19's TidyProvider.h declares it: edits the options for a file.
using TidyProviderRef = llvm::function_ref<void(tidy::ClangTidyOptions &, llvm::StringRef)>;
} // namespace clang::clangd

namespace {

using clang::clangd::TidyProviderRef;
using clang::tidy::ClangTidyOptions;

// The placement checks: one per rule that rules.def marks Check.
constexpr std::string_view PlacementChecks[] = {
#define PL_CHECK_Check(Name) placelint::ruleId(placelint::Rule::Name),
#define PL_CHECK_NotYet(Name)
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime) PL_CHECK_##Analyzer(Name)
#include <placelint/rules.def>
#undef PL_RULE
#undef PL_CHECK_NotYet
#undef PL_CHECK_Check
};
constexpr char PlacementGlob[] = PL_RULE_PREFIX "*";

bool isPlacementCheck(llvm::StringRef Check) {
  return llvm::is_contained(PlacementChecks, std::string_view(Check));
}

bool enablesPlacementCheck(llvm::StringRef Checks) {
  clang::tidy::GlobList Globs(Checks);
  return llvm::any_of(PlacementChecks, [&](std::string_view Check) {
    return Globs.contains(llvm::StringRef(Check.data(), Check.size()));
  });
}

} // namespace

// clangd's functions, and these in their place, under the names ld gives them.
TidyProviderRef clangdProvideDefaultChecks() asm("__real_" PL_CLANGD_PROVIDE_DEFAULT_CHECKS);
TidyProviderRef provideDefaultChecks() asm("__wrap_" PL_CLANGD_PROVIDE_DEFAULT_CHECKS);
std::optional<bool> clangdIsFastTidyCheck(llvm::StringRef Check) asm(
    "__real_" PL_CLANGD_IS_FAST_TIDY_CHECK);
std::optional<bool> isFastTidyCheck(llvm::StringRef Check) asm(
    "__wrap_" PL_CLANGD_IS_FAST_TIDY_CHECK);

namespace {

// Where the user's configuration names no checks, clangd's defaults apply
// and the placement checks join them. Where it names checks, it decides;
// if it leaves out every placement check, the user is told so.
void addPlacementChecks(ClangTidyOptions &Options, llvm::StringRef File) {
  bool UserNamedChecks = Options.Checks && !Options.Checks->empty();
  clangdProvideDefaultChecks()(Options, File);
  if (!UserNamedChecks) {
    Options.Checks = Options.Checks && !Options.Checks->empty()
                         ? *Options.Checks + "," + PlacementGlob
                         : std::string(PlacementGlob);
    return;
  }
  if (!enablesPlacementCheck(*Options.Checks))
    placelint::clangd::showMessageOnce(llvm::formatv(
        "the placement checks are off for {0}: its clang-tidy configuration enables none "
        "of them (Checks: '{1}'). To run them, add '{2}' to Checks in .clang-tidy, or to "
        "Diagnostics: ClangTidy: Add: in .clangd",
        File, *Options.Checks, PlacementGlob));
}

} // namespace

// clangd keeps the reference it returns for as long as it runs.
TidyProviderRef provideDefaultChecks() { return addPlacementChecks; }

// The placement checks cost a small fraction of clangd's own work on each
// edit (bench/README.md, "Editors"), so they count as fast: FastCheckFilter
// keeps them.
std::optional<bool> isFastTidyCheck(llvm::StringRef Check) {
  if (isPlacementCheck(Check))
    return true;
  return clangdIsFastTidyCheck(Check);
}
