#include "Driver.h"

#include "Baseline.h"
#include "Emitters.h"
#include "Fixes.h"
#include "Report.h"
#include "Scheduler.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

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
  std::vector<UnitReport> UnitReports =
      runWorkers(Units, workerInvocation(Options), Options.Jobs, Progress);
  if (ShowProgress && !Units.empty())
    llvm::errs() << "\r\x1b[K";

  RunReport Report = combineUnits(std::move(UnitReports), Options.SourceRoot);
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
