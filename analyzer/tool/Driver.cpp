#include "Driver.h"

#include "Baseline.h"
#include "ChangeSelection.h"
#include "Emitters.h"
#include "Fixes.h"
#include "RemoteCache.h"
#include "Report.h"
#include "ResultCache.h"
#include "Scheduler.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>

namespace placelint::tool {

namespace {

int fail(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "placelint") << Message << '\n';
  return ExitFailure;
}

int fail(llvm::Error Err) { return fail(llvm::toString(std::move(Err))); }

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadDatabase(const ToolOptions &Options) {
  std::string Error;
  if (Options.BuildPath) {
    auto Database = clang::tooling::CompilationDatabase::loadFromDirectory(*Options.BuildPath, Error);
    if (!Database)
      return llvm::createStringError("cannot load a compilation database from '%s': %s",
                                     Options.BuildPath->c_str(), Error.c_str());
    return std::move(Database);
  }
  if (Options.CompileArgs)
    return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", *Options.CompileArgs);
  return llvm::createStringError(
      "no compile command: pass -p BUILD_DIR (a directory with compile_commands.json) or "
      "-- COMPILE-ARGS after the files");
}

// What every worker gets: the clang-tidy configuration flags that were
// given, the source root, and how to find the compile command.
WorkerInvocation workerInvocation(const ToolOptions &Options) {
  WorkerInvocation Invocation;
  Invocation.Executable = Options.Executable;
  std::vector<std::string> &Before = Invocation.ArgsBeforeFile;
  const TidySettings &Tidy = Options.Tidy;
  if (Tidy.Checks)
    Before.push_back("--checks=" + *Tidy.Checks);
  if (Tidy.Config)
    Before.push_back("--config=" + *Tidy.Config);
  if (Tidy.ConfigFile)
    Before.push_back("--config-file=" + absolutePath(*Tidy.ConfigFile));
  if (Tidy.HeaderFilter)
    Before.push_back("--header-filter=" + *Tidy.HeaderFilter);
  Before.push_back("--source-root=" + Options.SourceRoot);
  if (Options.BuildPath) {
    Before.push_back("-p");
    Before.push_back(absolutePath(*Options.BuildPath));
  } else {
    Invocation.ArgsAfterFile.push_back("--");
    llvm::append_range(Invocation.ArgsAfterFile, *Options.CompileArgs);
  }
  return Invocation;
}

int listChecks(const ToolOptions &Options, llvm::StringRef File) {
  llvm::Expected<std::vector<std::string>> Checks = enabledChecks(Options.Tidy, File);
  if (!Checks)
    return fail(Checks.takeError());
  llvm::outs() << "Enabled checks:";
  for (const std::string &Check : *Checks)
    llvm::outs() << "\n    " << Check;
  llvm::outs() << "\n\n";
  return ExitClean;
}

void writeReport(const ToolOptions &Options, const RunReport &Report, SourceCache &Sources,
                 llvm::raw_ostream &OS) {
  switch (Options.Format) {
  case OutputFormat::Text:
    emitText(Report, Sources, OS);
    break;
  case OutputFormat::Json:
    emitJson(Report, OS);
    break;
  case OutputFormat::Sarif:
    emitSarif(Report, Sources, OS);
    break;
  }
  OS.flush();
}

// What decides a unit's findings besides its files: the checks'
// configuration for it and its compile command, as text for the cache key.
class UnitKeys {
public:
  static llvm::Expected<UnitKeys> create(const ToolOptions &Options,
                                         const clang::tooling::CompilationDatabase &Database) {
    auto Provider = createOptionsProvider(Options.Tidy);
    if (!Provider)
      return Provider.takeError();
    return UnitKeys(std::move(*Provider), Database);
  }

  std::string configuration(llvm::StringRef File) {
    std::lock_guard<std::mutex> Lock(*ProviderMutex);
    clang::tidy::ClangTidyOptions Effective = Provider->getOptions(File);
    // Who runs it changes no finding; leaving it out lets users share.
    Effective.User.reset();
    return clang::tidy::configurationAsText(Effective);
  }

  std::string command(llvm::StringRef File) const {
    std::string Text;
    for (const clang::tooling::CompileCommand &Command : Database->getCompileCommands(File)) {
      Text += Command.Directory;
      for (const std::string &Arg : Command.CommandLine)
        Text += '\0' + Arg;
      Text += '\n';
    }
    return Text;
  }

private:
  UnitKeys(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider,
           const clang::tooling::CompilationDatabase &Database)
      : Provider(std::move(Provider)), ProviderMutex(std::make_unique<std::mutex>()),
        Database(&Database) {}

  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider;
  std::unique_ptr<std::mutex> ProviderMutex; // the provider caches per directory
  const clang::tooling::CompilationDatabase *Database;
};

void printCacheStats(const ResultCache &Cache, const LocalCache::Usage &Usage,
                     uint64_t MaxBytes) {
  const CacheCounters &C = Cache.counters();
  llvm::errs() << llvm::formatv(
      "placelint: cache: {0} hits ({1} local, {2} remote), {3} misses, {4} stored, {5} "
      "unreadable; {6} ({7:f1} MiB of {8} MiB, {9} entries, {10} evicted)\n",
      C.LocalHits + C.RemoteHits, C.LocalHits.load(), C.RemoteHits.load(), C.Misses.load(),
      C.Stored.load(), C.Corrupt.load(), Cache.localDirectory(), Usage.Bytes / 1048576.0,
      MaxBytes >> 20, Usage.Entries, Usage.Evicted);
  if (const RemoteCache *Remote = Cache.remote())
    llvm::errs() << llvm::formatv(
        "placelint: remote cache {0}: {1} requests in {2:f2} s, {3:f1} KiB down, {4:f1} KiB "
        "up{5}\n",
        Remote->url(), Remote->requests(), Remote->seconds(), Remote->bytesDown() / 1024.0,
        Remote->bytesUp() / 1024.0,
        Remote->failed() ? ", failed (not used after the failure)" : "");
}

int exitCode(const ToolOptions &Options, const RunReport &Report) {
  bool ToolFailed = llvm::any_of(Report.Notifications, [](const Notification &N) {
    return N.Kind != NotificationKind::CompileError;
  });
  if (ToolFailed)
    return ExitFailure;
  if (!Options.usesCompilationDatabase())
    return Report.FilesFailed ? ExitFindings : ExitClean;
  if (Report.FilesFailed)
    return ExitFailure;
  return Report.Findings.empty() ? ExitClean : ExitFindings;
}

} // namespace

int runAnalysis(const ToolOptions &Options) {
  // Listing the checks needs no compile command, as clang-tidy's does not.
  if (Options.ListChecks && !Options.usesCompilationDatabase() && !Options.CompileArgs)
    return listChecks(Options,
                      absolutePath(Options.Inputs.empty() ? "dummy" : Options.Inputs.front()));
  llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> Database =
      loadDatabase(Options);
  if (!Database)
    return fail(Database.takeError());

  std::vector<std::string> Units;
  if (Options.usesCompilationDatabase()) {
    llvm::Expected<std::vector<std::string>> Selected =
        selectUnits(**Database, Options.SourceRoot, Options.Inputs, Options.Slice);
    if (!Selected)
      return fail(Selected.takeError());
    Units = std::move(*Selected);
  } else {
    for (const std::string &Input : Options.Inputs)
      Units.push_back(absolutePath(Input));
  }
  if (Options.ListChecks)
    return listChecks(Options, Units.empty() ? absolutePath("dummy") : Units.front());
  if (Units.empty() && !Options.Slice)
    return fail("no input files");

  std::optional<ChangeSet> Changes;
  std::vector<std::string> Unchanged;
  if (Options.ChangedSince || Options.FilesFrom) {
    llvm::Expected<ChangeSet> Found =
        Options.ChangedSince ? changesSinceRevision(*Options.ChangedSince, Options.SourceRoot)
                             : changesFromList(*Options.FilesFrom, Options.SourceRoot);
    if (!Found)
      return fail(Found.takeError());
    Changes = std::move(*Found);
    UnitSelection Selection = selectChangedUnits(**Database, Units, *Changes, Options.Jobs);
    Units = std::move(Selection.Changed);
    Unchanged = std::move(Selection.Unchanged);
  }

  if (!Units.empty()) {
    llvm::Expected<std::vector<std::string>> Checks = enabledChecks(Options.Tidy, Units.front());
    if (!Checks)
      return fail(Checks.takeError());
    if (Checks->empty())
      return fail("no checks enabled (see --checks and the Checks of .clang-tidy files)");
  }

  std::optional<Baseline> Accepted;
  if (Options.BaselinePath) {
    llvm::Expected<Baseline> Loaded = Baseline::load(*Options.BaselinePath);
    if (!Loaded)
      return fail(Loaded.takeError());
    Accepted = std::move(*Loaded);
  }

  // Opened before the analysis, so that a path that cannot be written fails
  // the run at once rather than after every unit was analysed.
  std::optional<llvm::raw_fd_ostream> OutputFile;
  if (Options.Output) {
    std::error_code EC;
    OutputFile.emplace(*Options.Output, EC, llvm::sys::fs::OF_Text);
    if (EC)
      return fail("cannot write '" + *Options.Output + "': " + EC.message());
  }

  bool ShowProgress = !Options.Quiet && llvm::sys::Process::StandardErrIsDisplayed();
  auto Progress = [&](unsigned Done, unsigned Total, llvm::StringRef File) {
    if (ShowProgress)
      llvm::errs() << llvm::formatv("\r\x1b[K[{0}/{1}] {2}", Done, Total,
                                    displayPath(File, Options.SourceRoot));
  };
  std::unique_ptr<ResultCache> Cache;
  std::optional<UnitKeys> Keys;
  if (Options.CacheDirectory) {
    llvm::Expected<UnitKeys> Made = UnitKeys::create(Options, **Database);
    if (!Made)
      return fail(Made.takeError());
    Keys.emplace(std::move(*Made));
    Cache = std::make_unique<ResultCache>(
        toolIdentity(Options.Executable), std::make_unique<LocalCache>(*Options.CacheDirectory),
        Options.RemoteCacheUrl
            ? std::make_unique<RemoteCache>(*Options.RemoteCacheUrl, Options.RemoteTimeoutMs)
            : nullptr);
  }
  std::optional<UnitCache> CacheHooks;
  if (Cache)
    CacheHooks.emplace(UnitCache{*Cache, [&](llvm::StringRef File) {
                                   return Cache->unitKey(File, Keys->configuration(File),
                                                         Keys->command(File));
                                 }});
  std::vector<UnitReport> UnitReports =
      runWorkers(Units, workerInvocation(Options), Options.Jobs, Progress, CacheHooks);
  if (ShowProgress && !Units.empty())
    llvm::errs() << "\r\x1b[K";

  RunReport Report = combineUnits(std::move(UnitReports), Options.SourceRoot);
  if (Changes) {
    Report.Unchanged = std::move(Unchanged);
    Report.Changes = Options.ChangedSince ? "git diff " + *Options.ChangedSince
                                          : "--files-from " + *Options.FilesFrom;
    if (Options.ChangedLinesOnly)
      keepChangedLines(Report, *Changes);
  }
  if (Cache) {
    LocalCache::Usage Usage = Cache->local().trim(Options.CacheMaxBytes);
    if (Options.CacheStats)
      printCacheStats(*Cache, Usage, Options.CacheMaxBytes);
  }
  if (Options.WriteBaselinePath)
    if (llvm::Error Err = Baseline::write(*Options.WriteBaselinePath, Report))
      return fail(std::move(Err));
  if (Accepted)
    Accepted->hide(Report);
  if (Options.ExportFixesPath)
    if (llvm::Error Err = exportFixes(Report, *Options.ExportFixesPath))
      return fail(std::move(Err));

  SourceCache Sources;
  // Emit before fixing: the report's snippets and columns describe the
  // code that was analysed.
  writeReport(Options, Report, Sources, OutputFile ? *OutputFile : llvm::outs());
  if (Options.Fix) {
    llvm::Expected<FixOutcome> Outcome = applyFixes(Report);
    if (!Outcome)
      return fail(Outcome.takeError());
    if (!Options.Quiet && Outcome->Suggested)
      llvm::errs() << "placelint: applied " << Outcome->Applied << " of " << Outcome->Suggested
                   << " suggested fixes\n";
  }
  if (!Options.Quiet)
    llvm::errs() << summaryLine(Report) << '\n';
  return exitCode(Options, Report);
}

int runWorker(const ToolOptions &Options) {
  if (Options.Inputs.size() != 1)
    return fail("a worker analyses exactly one file");
  llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> Database =
      loadDatabase(Options);
  if (!Database)
    return fail(Database.takeError());
  UnitReport Report = analyzeUnit(std::move(*Database), Options.Inputs.front(), Options.Tidy);
  std::error_code EC;
  llvm::raw_fd_ostream Out(*Options.WorkerOutput, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return fail("cannot write '" + *Options.WorkerOutput + "': " + EC.message());
  Out << llvm::json::Value(toJSON(Report));
  return ExitClean;
}

} // namespace placelint::tool
