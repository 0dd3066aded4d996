// placelint: the placement checks over whole code bases, for CI and the
// command line. See docs/ci.md. `placelint merge` joins SARIF shards.
#include "Driver.h"
#include "Merge.h"
#include "ResultCache.h"
#include "SourceFiles.h"

#include "placelint/rules.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy {
// Defined with the placement module; referencing it links the module in.
extern volatile int PlacelintModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED PlacelintModuleAnchorDestination = PlacelintModuleAnchorSource;
} // namespace clang::tidy

namespace {

namespace cl = llvm::cl;
using namespace placelint::tool;

cl::OptionCategory Category("placelint options");

const char Overview[] = R"(finds device-placement bugs in C++ tensor code

  placelint -p BUILD_DIR [PATH...]        every translation unit of
                                          BUILD_DIR/compile_commands.json under
                                          PATH (default: the source root)
  placelint FILE... -- COMPILE-ARGS       like clang-tidy, one command for all
  placelint merge OUT.sarif IN.sarif...   join SARIF logs of shards

For big trees (docs/ci.md): --changed-since REF analyses only the units that
are or include a changed file; --cache (or --cache-dir, --remote-cache)
reuses the results of units none of whose files changed.

Exit status with -p: 0 no findings, 1 findings, 2 usage or tool error or a
file that could not be analysed. With -- COMPILE-ARGS: as clang-tidy
(0, or 1 when the code does not compile; 2 for usage or tool errors).
)";

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."), cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("build directory holding compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> Checks("checks",
                            cl::desc("clang-tidy check globs, added to the configuration's "
                                     "(default: " PL_RULE_PREFIX "*)"),
                            cl::cat(Category));
cl::opt<std::string> Config("config", cl::desc("clang-tidy configuration in YAML/JSON, instead "
                                                 "of .clang-tidy files"),
                            cl::cat(Category));
cl::opt<std::string> ConfigFile("config-file",
                                cl::desc("read the clang-tidy configuration from this file"),
                                cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("regex of headers to report findings in (default "
                                           "with -p: headers under the source root)"),
                                  cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("apply the suggested fixes in place"), cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("write the findings and fixes as clang-tidy YAML"),
                                 cl::value_desc("file"), cl::cat(Category));
cl::opt<OutputFormat> Format("format", cl::desc("report format"),
                             cl::values(clEnumValN(OutputFormat::Text, "text", "clang diagnostics"),
                                        clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0"),
                                        clEnumValN(OutputFormat::Json, "json", "placelint JSON")),
                             cl::init(OutputFormat::Text), cl::cat(Category));
cl::opt<std::string> Output("output", cl::desc("write the report here instead of stdout"),
                            cl::value_desc("file"), cl::cat(Category));
cl::alias OutputShort("o", cl::desc("alias for --output"), cl::aliasopt(Output), cl::cat(Category));
cl::opt<std::string> BaselinePath("baseline", cl::desc("hide the findings recorded in this file"),
                                  cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselinePath("write-baseline",
                                       cl::desc("record the current findings in this file"),
                                       cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("files analysed at once (default: number of cores)"),
                       cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<std::string> ShardSpec("shard", cl::desc("analyse only slice I of N (1-based), with -p"),
                               cl::value_desc("I/N"), cl::cat(Category));
cl::opt<std::string> ChangedSince(
    "changed-since",
    cl::desc("analyse only the units that are, or include, a file changed since this git "
             "revision (committed, staged, unstaged or untracked), with -p"),
    cl::value_desc("rev"), cl::cat(Category));
cl::opt<std::string> FilesFrom(
    "files-from",
    cl::desc("analyse only the units that are, or include, a file listed in this file (one "
             "path a line, relative to the source root; - for stdin), with -p"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> ChangedLinesOnly("changed-lines-only",
                               cl::desc("report only findings on changed lines (with "
                                        "--changed-since; with --files-from, in listed files)"),
                               cl::cat(Category));
cl::opt<bool> UseCache("cache", cl::desc("reuse results of units whose inputs did not change, "
                                         "from the cache directory"),
                       cl::cat(Category));
cl::opt<std::string> CacheDir("cache-dir",
                              cl::desc("the result cache's directory; implies --cache (default: "
                                       "$XDG_CACHE_HOME/placelint or ~/.cache/placelint)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<unsigned> CacheSizeMiB("cache-size",
                               cl::desc("bound of the cache directory in MiB; the least recently "
                                        "used entries go first (default: 1024)"),
                               cl::value_desc("MiB"), cl::init(1024), cl::cat(Category));
cl::opt<std::string> RemoteCacheUrl(
    "remote-cache",
    cl::desc("also share results through this HTTP cache (Bazel's remote-cache protocol: "
             "bazel-remote, nginx WebDAV, ...); implies --cache"),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<unsigned> RemoteTimeoutMs("remote-cache-timeout",
                                  cl::desc("give up a remote cache request after this many "
                                           "milliseconds (default: 2000)"),
                                  cl::value_desc("ms"), cl::init(2000), cl::cat(Category));
cl::opt<bool> CacheStats("cache-stats",
                         cl::desc("print the cache's hits, misses and size on stderr"),
                         cl::cat(Category));
cl::opt<std::string> SourceRoot("source-root",
                                cl::desc("root of the sources; reported paths are relative to "
                                         "it (default: the current directory)"),
                                cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("no progress, summary or fix count on stderr"),
                    cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("list the enabled checks and exit"),
                         cl::cat(Category));
cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden,
                                  cl::desc("internal: analyse one file, write its report here"),
                                  cl::cat(Category));

std::optional<std::string> givenString(const cl::opt<std::string> &Option) {
  if (Option.getNumOccurrences() == 0)
    return std::nullopt;
  return Option.getValue();
}

int usageError(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "placelint") << Message << '\n';
  return ExitFailure;
}

int runMergeCommand(llvm::ArrayRef<const char *> Args) {
  if (Args.size() < 2)
    return usageError("usage: placelint merge OUT.sarif IN.sarif...");
  std::vector<std::string> InputLogs(Args.begin() + 1, Args.end());
  llvm::Expected<MergeOutcome> Outcome = mergeSarif(Args.front(), InputLogs);
  if (!Outcome)
    return usageError(llvm::toString(Outcome.takeError()));
  llvm::errs() << "placelint: merged " << InputLogs.size() << " logs, " << Outcome->Results
               << " results\n";
  if (!Outcome->ExecutionSuccessful)
    return ExitFailure;
  return Outcome->Results ? ExitFindings : ExitClean;
}

} // namespace

int main(int argc, const char **argv) {
  llvm::InitLLVM Init(argc, argv);
  if (argc >= 2 && llvm::StringRef(argv[1]) == "merge")
    return runMergeCommand(llvm::ArrayRef(argv + 2, argv + argc));

  // Everything after "--" is the compile command, as for clang-tidy.
  int OptionCount = argc;
  std::optional<std::vector<std::string>> CompileArgs;
  for (int I = 1; I < argc; ++I)
    if (llvm::StringRef(argv[I]) == "--") {
      OptionCount = I;
      CompileArgs.emplace(argv + I + 1, argv + argc);
      break;
    }
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << "placelint " PL_VERSION "\n"; });
  if (!cl::ParseCommandLineOptions(OptionCount, argv, Overview, &llvm::errs()))
    return ExitFailure;

  ToolOptions Options;
  Options.Executable = llvm::sys::fs::getMainExecutable(argv[0], (void *)&usageError);
  Options.Inputs = Inputs;
  Options.BuildPath = givenString(BuildPath);
  // `-p build/compile_commands.json` names the database itself: take its directory.
  if (Options.BuildPath && llvm::sys::fs::is_regular_file(*Options.BuildPath))
    Options.BuildPath = llvm::sys::path::parent_path(absolutePath(*Options.BuildPath)).str();
  Options.CompileArgs = std::move(CompileArgs);
  Options.Tidy.Checks = givenString(Checks);
  Options.Tidy.Config = givenString(Config);
  Options.Tidy.ConfigFile = givenString(ConfigFile);
  Options.Tidy.HeaderFilter = givenString(HeaderFilter);
  Options.Format = Format;
  Options.Output = givenString(Output);
  Options.BaselinePath = givenString(BaselinePath);
  Options.WriteBaselinePath = givenString(WriteBaselinePath);
  Options.ExportFixesPath = givenString(ExportFixes);
  Options.WorkerOutput = givenString(WorkerOutput);
  Options.SourceRoot = absolutePath(SourceRoot.empty() ? "." : SourceRoot.getValue());
  Options.ChangedSince = givenString(ChangedSince);
  Options.FilesFrom = givenString(FilesFrom);
  Options.ChangedLinesOnly = ChangedLinesOnly;
  if (UseCache || !CacheDir.empty() || !RemoteCacheUrl.empty())
    Options.CacheDirectory = CacheDir.empty() ? defaultCacheDirectory() : absolutePath(CacheDir);
  Options.RemoteCacheUrl = givenString(RemoteCacheUrl);
  Options.CacheMaxBytes = uint64_t(CacheSizeMiB) << 20;
  Options.RemoteTimeoutMs = RemoteTimeoutMs;
  Options.CacheStats = CacheStats;
  Options.Jobs = Jobs;
  Options.Fix = Fix;
  Options.Quiet = Quiet;
  Options.ListChecks = ListChecks;

  if (Options.BuildPath && Options.CompileArgs)
    return usageError("give either -p BUILD_DIR or -- COMPILE-ARGS, not both");
  if (Options.Tidy.Config && Options.Tidy.ConfigFile)
    return usageError("give either --config or --config-file, not both");
  if (Options.ChangedSince && Options.FilesFrom)
    return usageError("give either --changed-since or --files-from, not both");
  if ((Options.ChangedSince || Options.FilesFrom) && !Options.BuildPath)
    return usageError("--changed-since and --files-from need a compilation database "
                      "(-p BUILD_DIR)");
  if (Options.ChangedLinesOnly && !Options.ChangedSince && !Options.FilesFrom)
    return usageError("--changed-lines-only needs --changed-since or --files-from");
  if ((Options.ChangedSince || Options.FilesFrom) && Options.WriteBaselinePath)
    return usageError("--write-baseline records the whole tree: it cannot be combined with "
                      "--changed-since or --files-from");
  if (Options.CacheStats && !Options.CacheDirectory)
    return usageError("--cache-stats needs the cache (--cache, --cache-dir or --remote-cache)");
  if (Options.RemoteCacheUrl && !llvm::StringRef(*Options.RemoteCacheUrl).starts_with("http://") &&
      !llvm::StringRef(*Options.RemoteCacheUrl).starts_with("https://"))
    return usageError("--remote-cache wants an http:// or https:// URL, not '" +
                      *Options.RemoteCacheUrl + "'");
  if (!ShardSpec.empty()) {
    if (!Options.BuildPath)
      return usageError("--shard needs a compilation database (-p BUILD_DIR)");
    llvm::Expected<Shard> Slice = parseShard(ShardSpec);
    if (!Slice)
      return usageError(llvm::toString(Slice.takeError()));
    Options.Slice = *Slice;
  }
  // With a compilation database, "user code" is everything under the
  // source root, headers included; clang-tidy's default (no headers) stays
  // for the clang-tidy-style command line.
  if (Options.BuildPath)
    Options.Tidy.DefaultHeaderFilter =
        "^" + llvm::Regex::escape(Options.SourceRoot + llvm::sys::path::get_separator().str());

  if (Options.WorkerOutput)
    return runWorker(Options);
  return runAnalysis(Options);
}
