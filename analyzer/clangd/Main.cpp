// placelint-clangd: clangd 19 with the placement checks linked in, a drop-in
// replacement for clangd in editors (docs/editors.md). clangd itself runs:
// this main only names clang's built-in headers and places the relay that
// lets placelint-clangd speak to the editor (ShowMessage.h).
#include "ShowMessage.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"

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

// clangd reads its flags from the command line and from this variable.
constexpr char ClangdFlagsVariable[] = "CLANGD_FLAGS";

bool namesResourceDir(llvm::StringRef Arg) {
  Arg = Arg.ltrim('-');
  return Arg == "resource-dir" || Arg.starts_with("resource-dir=");
}

bool userNamedResourceDir(llvm::ArrayRef<const char *> Args) {
  if (llvm::any_of(Args, namesResourceDir))
    return true;
  std::optional<std::string> EnvFlags = llvm::sys::Process::GetEnv(ClangdFlagsVariable);
  if (!EnvFlags)
    return false;
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver(Allocator);
  llvm::SmallVector<const char *, 8> Tokens;
  llvm::cl::TokenizeGNUCommandLine(*EnvFlags, Saver, Tokens);
  return llvm::any_of(Tokens, namesResourceDir);
}

// clangd looks for clang's built-in headers (stddef.h, the intrinsics) in
// <its own directory>/../lib/clang/<version>, which exists only inside LLVM's
// tree; placelint-clangd is installed beside the plugin instead. So it names
// the directory of the clang it was built with, unless the user named one or
// that clang is gone.
bool shouldNameResourceDir(llvm::ArrayRef<const char *> Args) {
  llvm::SmallString<128> Headers(PL_CLANG_RESOURCE_DIR);
  llvm::sys::path::append(Headers, "include");
  return !userNamedResourceDir(Args) && llvm::sys::fs::is_directory(Headers);
}

} // namespace

int main(int argc, char *argv[]) {
  std::vector<char *> Args(argv, argv + argc);
  std::string ResourceDirFlag = "--resource-dir=" PL_CLANG_RESOURCE_DIR;
  if (shouldNameResourceDir({argv + 1, argv + argc}))
    Args.insert(Args.begin() + 1, ResourceDirFlag.data());
  // A terminal is a person trying the binary, not an editor: clangd then
  // prints its usage there, which the relay would hide.
  if (!isatty(STDOUT_FILENO))
    placelint::clangd::relayLspOutput();
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size() - 1), Args.data());
}
