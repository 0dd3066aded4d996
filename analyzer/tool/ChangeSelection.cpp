#include "ChangeSelection.h"

#include "CompileDatabase.h"
#include "SourceFiles.h"
#include "TidyRunner.h"

#include "clang/Tooling/DependencyScanning/DependencyScanningService.h"
#include "clang/Tooling/DependencyScanning/DependencyScanningTool.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <mutex>

namespace placelint::tool {

namespace deps = clang::tooling::dependencies;

bool ChangeSet::containsLine(llvm::StringRef RealPath, unsigned Line) const {
  auto It = Files.find(RealPath.str());
  if (It == Files.end())
    return false;
  if (It->second.empty())
    return true;
  return llvm::any_of(It->second, [&](const std::pair<unsigned, unsigned> &Range) {
    return Range.first <= Line && Line <= Range.second;
  });
}

namespace {

// The real path of an existing file; for a deleted one, its normalised
// absolute path (it can still name a unit of the database).
std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return Real.str().str();
  return absolutePath(Path);
}

// Runs git with Args in Directory; its standard output, or an error that
// quotes what it said.
llvm::Expected<std::string> runGit(llvm::StringRef Directory,
                                   std::vector<std::string> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError("--changed-since needs git, which is not on the PATH");
  llvm::SmallString<128> Out, Err;
  if (llvm::sys::fs::createTemporaryFile("placelint-git", "out", Out) ||
      llvm::sys::fs::createTemporaryFile("placelint-git", "err", Err))
    return llvm::createStringError("cannot create temporary files for git's output");
  auto Cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(Out);
    llvm::sys::fs::remove(Err);
  });
  std::vector<std::string> Argv{*Git, "-C", Directory.str(), "-c", "core.quotePath=false"};
  llvm::append_range(Argv, Args);
  std::vector<llvm::StringRef> ArgRefs(Argv.begin(), Argv.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(), Out.str(), Err.str()};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Git, ArgRefs, std::nullopt, Redirects, 0, 0, &Error);
  auto Stdout = llvm::MemoryBuffer::getFile(Out);
  if (Status != 0) {
    auto Stderr = llvm::MemoryBuffer::getFile(Err);
    std::string Said = Stderr ? (*Stderr)->getBuffer().trim().str() : Error;
    return llvm::createStringError("git %s failed: %s", Args.front().c_str(), Said.c_str());
  }
  return Stdout ? (*Stdout)->getBuffer().str() : std::string();
}

// The new side's line ranges of `git diff -U0`, per file.
void addChangedLines(llvm::StringRef Diff, llvm::StringRef TopLevel, ChangeSet &Changes) {
  std::string Current;
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.consume_front("+++ ")) {
      Current = Line.consume_front("b/") ? realPath((TopLevel + "/" + Line).str()) : "";
      continue;
    }
    if (Current.empty() || !Line.consume_front("@@ "))
      continue;
    // @@ -a[,b] +c[,d] @@: d lines from c; d = 0 is a pure deletion.
    llvm::StringRef New = Line.split(' ').second.split(' ').first;
    if (!New.consume_front("+"))
      continue;
    auto [StartText, CountText] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    auto It = Changes.Files.find(Current);
    if (Count && It != Changes.Files.end())
      It->second.push_back({Start, Start + Count - 1});
  }
}

} // namespace

llvm::Expected<ChangeSet> changesSinceRevision(llvm::StringRef Revision,
                                               llvm::StringRef SourceRoot) {
  llvm::Expected<std::string> TopLevel = runGit(SourceRoot, {"rev-parse", "--show-toplevel"});
  if (!TopLevel)
    return TopLevel.takeError();
  std::string Top = llvm::StringRef(*TopLevel).trim().str();
  // The end of options: a revision that looks like a path is still one.
  llvm::Expected<std::string> Names =
      runGit(SourceRoot, {"diff", "--no-ext-diff", "--name-only", "-z", Revision.str(), "--"});
  if (!Names)
    return Names.takeError();
  llvm::Expected<std::string> Untracked =
      runGit(SourceRoot, {"ls-files", "--others", "--exclude-standard", "--full-name", "-z"});
  if (!Untracked)
    return Untracked.takeError();
  llvm::Expected<std::string> Diff = runGit(
      SourceRoot, {"diff", "--no-ext-diff", "--no-color", "-U0", Revision.str(), "--"});
  if (!Diff)
    return Diff.takeError();

  ChangeSet Changes;
  llvm::SmallVector<llvm::StringRef> Paths;
  llvm::StringRef(*Names).split(Paths, '\0', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Path : Paths)
    Changes.Files[realPath(Top + "/" + Path.str())];
  addChangedLines(*Diff, Top, Changes);
  // An untracked file is new: all its lines changed.
  Paths.clear();
  llvm::StringRef(*Untracked).split(Paths, '\0', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Path : Paths)
    Changes.Files[realPath(Top + "/" + Path.str())].clear();
  return Changes;
}

llvm::Expected<ChangeSet> changesFromList(llvm::StringRef ListFile, llvm::StringRef SourceRoot) {
  auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(ListFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read --files-from '%s': %s",
                                   ListFile.str().c_str(), Buffer.getError().message().c_str());
  ChangeSet Changes;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    llvm::SmallString<256> Path(SourceRoot);
    if (llvm::sys::path::is_absolute(Line))
      Path = Line;
    else
      llvm::sys::path::append(Path, Line);
    Changes.Files[realPath(Path)];
  }
  return Changes;
}

UnitSelection selectChangedUnits(const clang::tooling::CompilationDatabase &Database,
                                 llvm::ArrayRef<std::string> Units, const ChangeSet &Changes,
                                 unsigned Jobs) {
  std::vector<char> Touched(Units.size(), 0);
  deps::DependencyScanningService Service(deps::ScanningMode::DependencyDirectivesScan,
                                          deps::ScanningOutputFormat::Full);
  std::mutex RealPathsMutex;
  llvm::StringMap<std::string> RealPaths; // a header's, found once for all units
  auto isChanged = [&](llvm::StringRef Path) {
    {
      std::lock_guard<std::mutex> Lock(RealPathsMutex);
      auto It = RealPaths.find(Path);
      if (It != RealPaths.end())
        return Changes.contains(It->second);
    }
    std::string Real = realPath(Path);
    std::lock_guard<std::mutex> Lock(RealPathsMutex);
    RealPaths[Path] = Real;
    return Changes.contains(Real);
  };
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Units.size(); ++I) {
    if (Changes.contains(realPath(Units[I]))) {
      Touched[I] = 1;
      continue;
    }
    Pool.async([&, I] {
      std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(Units[I]);
      if (Commands.empty()) {
        Touched[I] = 1;
        return;
      }
      clang::tooling::CompileCommand Command = withAbsolutePaths(Commands.front());
      deps::DependencyScanningTool Scanner(Service);
      llvm::Expected<deps::TranslationUnitDeps> Found = Scanner.getTranslationUnitDependencies(
          withResourceDir(Command.CommandLine), Command.Directory, {},
          [](const deps::ModuleID &, deps::ModuleOutputKind) { return std::string(); });
      if (!Found) {
        llvm::consumeError(Found.takeError());
        Touched[I] = 1;
        return;
      }
      Touched[I] = llvm::any_of(Found->FileDeps, [&](llvm::StringRef Dependency) {
        llvm::SmallString<256> Path(Dependency);
        llvm::sys::fs::make_absolute(Command.Directory, Path);
        return isChanged(Path);
      });
    });
  }
  Pool.wait();
  UnitSelection Selection;
  for (size_t I = 0; I < Units.size(); ++I)
    (Touched[I] ? Selection.Changed : Selection.Unchanged).push_back(Units[I]);
  return Selection;
}

void keepChangedLines(RunReport &Report, const ChangeSet &Changes) {
  llvm::erase_if(Report.Findings, [&](const Finding &F) {
    return !F.Location || !Changes.containsLine(realPath(F.Location->File), F.Location->Line);
  });
}

} // namespace placelint::tool
