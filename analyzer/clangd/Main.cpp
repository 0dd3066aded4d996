// placelint-clangd: clangd 19 with the placement checks linked in, a drop-in
// replacement for clangd in editors (docs/editors.md). clangd itself runs:
// this main only names clang's built-in headers, places the relay that lets
// placelint-clangd speak to the editor (ShowMessage.h), and says so when the
// flags turn the checks off.
#include "ShowMessage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"

#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace clang::tidy {
// Defined with the placement module; referencing it links the module in.
extern volatile int PlacelintModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED PlacelintModuleAnchorDestination = PlacelintModuleAnchorSource;
} // namespace clang::tidy

namespace clang::clangd {
// clangd's whole program (libclangdMain); Debian installs no header for it.
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

namespace {

// The flags clangd reads: those in this variable, then the command line's.
class ClangdFlags {
public:
  ClangdFlags(int argc, char *argv[]) : Saver(Allocator) {
    if (std::optional<std::string> FromEnvironment = llvm::sys::Process::GetEnv("CLANGD_FLAGS"))
      llvm::cl::TokenizeGNUCommandLine(*FromEnvironment, Saver, Flags);
    Flags.append(argv + 1, argv + argc);
  }

  // The value of the last `--Name=value` (empty for a bare `--Name`).
  std::optional<llvm::StringRef> value(llvm::StringRef Name) const {
    std::optional<llvm::StringRef> Value;
    for (llvm::StringRef Flag : Flags) {
      Flag = Flag.ltrim('-');
      if (Flag.consume_front(Name) && (Flag.empty() || Flag.consume_front("=")))
        Value = Flag;
    }
    return Value;
  }

private:
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver;
  llvm::SmallVector<const char *, 16> Flags;
};

// clangd looks for clang's built-in headers (stddef.h, the intrinsics) in
// <its own directory>/../lib/clang/<version>, which exists only inside LLVM's
// tree; placelint-clangd is installed beside the plugin instead. So it names
// the directory of the clang it was built with, unless the user named one or
// that clang is gone.
bool shouldNameResourceDir(const ClangdFlags &Flags) {
  llvm::SmallString<128> Headers(PL_CLANG_RESOURCE_DIR);
  llvm::sys::path::append(Headers, "include");
  return !Flags.value("resource-dir") && llvm::sys::fs::is_directory(Headers);
}

// `--clang-tidy=false` (Sublime's LSP-clangd passes it by default) turns off
// every clang-tidy check, and with them the placement checks.
bool clangTidyOff(const ClangdFlags &Flags) {
  std::optional<llvm::StringRef> Value = Flags.value("clang-tidy");
  return Value && (Value->equals_insensitive("false") || *Value == "0");
}

} // namespace

int main(int argc, char *argv[]) {
  const ClangdFlags Flags(argc, argv);
  std::vector<char *> Args(argv, argv + argc);
  std::string ResourceDirFlag = "--resource-dir=" PL_CLANG_RESOURCE_DIR;
  if (shouldNameResourceDir(Flags))
    Args.insert(Args.begin() + 1, ResourceDirFlag.data());
  // A terminal is a person trying the binary, not an editor: clangd then
  // prints its usage there, which the relay would hide.
  if (!isatty(STDOUT_FILENO))
    placelint::clangd::relayLspOutput();
  if (clangTidyOff(Flags))
    placelint::clangd::showMessageOnce(
        "the placement checks are off: --clang-tidy=false turns off clang-tidy's checks in "
        "clangd, and these are among them; remove the flag (in Sublime's LSP-clangd, set "
        "\"clangd.clang-tidy\": true)");
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size() - 1), Args.data());
}
