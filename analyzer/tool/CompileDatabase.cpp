#include "CompileDatabase.h"

#include "SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace placelint::tool {

llvm::Expected<Shard> parseShard(llvm::StringRef Text) {
  auto [IndexText, CountText] = Text.split('/');
  Shard Result;
  if (IndexText.getAsInteger(10, Result.Index) || CountText.getAsInteger(10, Result.Count) ||
      Result.Count == 0 || Result.Index == 0 || Result.Index > Result.Count)
    return llvm::createStringError(
        "invalid --shard '%s': expected I/N with 1 <= I <= N, e.g. --shard=2/4",
        Text.str().c_str());
  return Result;
}

namespace {

bool isUnder(llvm::StringRef File, llvm::StringRef Path) {
  return File == Path || !relativeTo(File, Path).empty();
}

} // namespace

llvm::Expected<std::vector<std::string>>
selectUnits(const clang::tooling::CompilationDatabase &Database, llvm::StringRef SourceRoot,
            llvm::ArrayRef<std::string> Paths, std::optional<Shard> Slice) {
  std::vector<std::string> Files;
  for (const std::string &File : Database.getAllFiles())
    Files.push_back(absolutePath(File));
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());

  std::vector<std::string> Roots;
  for (const std::string &Path : Paths)
    Roots.push_back(absolutePath(Path));
  if (Roots.empty())
    Roots.push_back(absolutePath(SourceRoot));

  std::vector<std::string> Selected;
  for (const std::string &Root : Roots) {
    bool Matched = false;
    for (const std::string &File : Files)
      if (isUnder(File, Root)) {
        Selected.push_back(File);
        Matched = true;
      }
    if (!Matched)
      return llvm::createStringError("no translation unit of the compilation database is at or "
                                     "under '%s'",
                                     Root.c_str());
  }
  llvm::sort(Selected);
  Selected.erase(std::unique(Selected.begin(), Selected.end()), Selected.end());
  if (!Slice)
    return Selected;
  std::vector<std::string> Sliced;
  for (size_t I = 0; I < Selected.size(); ++I)
    if (I % Slice->Count == Slice->Index - 1)
      Sliced.push_back(Selected[I]);
  return Sliced;
}

namespace {

// The driver's spellings of "add this include directory"; each is also
// accepted joined to its value (`-Isrc`, `--include-directory=src`).
constexpr llvm::StringLiteral kIncludeDirectoryFlags[] = {"-I", "-isystem", "-iquote", "-idirafter",
                                                           "--include-directory"};

// Path against Directory unless it is absolute already or names the
// sysroot (`=dir`, `$SYSROOT/dir`), which the driver resolves itself.
std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef Path) {
  if (Path.empty() || Directory.empty() || llvm::sys::path::is_absolute(Path) ||
      Path.starts_with("=") || Path.starts_with("$SYSROOT"))
    return Path.str();
  llvm::SmallString<256> Absolute(Directory);
  llvm::sys::path::append(Absolute, Path);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

class AbsolutePathsDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit AbsolutePathsDatabase(std::unique_ptr<clang::tooling::CompilationDatabase> Inner)
      : Inner(std::move(Inner)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    return adjusted(Inner->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override {
    return adjusted(Inner->getAllCompileCommands());
  }

private:
  static std::vector<clang::tooling::CompileCommand>
  adjusted(std::vector<clang::tooling::CompileCommand> Commands) {
    for (clang::tooling::CompileCommand &Command : Commands)
      Command = withAbsolutePaths(std::move(Command));
    return Commands;
  }

  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
};

} // namespace

clang::tooling::CompileCommand withAbsolutePaths(clang::tooling::CompileCommand Command) {
  const std::string &Directory = Command.Directory;
  std::vector<std::string> &Args = Command.CommandLine;
  const std::string RelativeFile =
      llvm::sys::path::is_absolute(Command.Filename) ? std::string() : Command.Filename;
  // Args[0] is the compiler.
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (!RelativeFile.empty() && Arg == RelativeFile) {
      Args[I] = absoluteIn(Directory, Arg);
      continue;
    }
    for (llvm::StringRef Flag : kIncludeDirectoryFlags) {
      if (Arg == Flag) {
        if (I + 1 < Args.size()) {
          Args[I + 1] = absoluteIn(Directory, Args[I + 1]);
          ++I;
        }
        break;
      }
      if (!Arg.starts_with(Flag))
        continue;
      llvm::StringRef Value = Arg.drop_front(Flag.size());
      // The long form joins with '='; the short ones take the rest of the
      // argument, which is not another flag (`-isystem-after`, `-I-`).
      if (Flag.starts_with("--")) {
        if (!Value.consume_front("="))
          continue;
        Args[I] = (Flag + "=" + absoluteIn(Directory, Value)).str();
      } else if (!Value.starts_with("-")) {
        Args[I] = (Flag + absoluteIn(Directory, Value)).str();
      }
      break;
    }
  }
  if (!RelativeFile.empty())
    Command.Filename = absoluteIn(Directory, RelativeFile);
  return Command;
}

std::unique_ptr<clang::tooling::CompilationDatabase>
withAbsolutePaths(std::unique_ptr<clang::tooling::CompilationDatabase> Inner) {
  return std::make_unique<AbsolutePathsDatabase>(std::move(Inner));
}

} // namespace placelint::tool
