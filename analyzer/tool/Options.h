// Everything the command line decides, parsed once in main and handed to
// the driver as plain data.
#pragma once

#include "CompileDatabase.h"
#include "TidyRunner.h"

#include <optional>
#include <string>
#include <vector>

namespace placelint::tool {

// Exit statuses. With a compilation database (-p): 0 no findings, 1
// findings, 2 a usage or tool error or a unit that could not be analysed.
// With `FILE... -- ARGS` placelint is a drop-in for clang-tidy and exits
// like it: 0 whatever it found, 1 when the code does not compile.
enum ExitCode : int { ExitClean = 0, ExitFindings = 1, ExitFailure = 2 };

enum class OutputFormat { Text, Sarif, Json };

struct ToolOptions {
  std::string Executable; // this program, re-run as the worker
  std::vector<std::string> Inputs;
  std::optional<std::string> BuildPath;        // -p
  std::optional<std::vector<std::string>> CompileArgs; // after --
  TidySettings Tidy;
  OutputFormat Format = OutputFormat::Text;
  std::optional<std::string> Output;
  std::optional<std::string> BaselinePath;
  std::optional<std::string> WriteBaselinePath;
  std::optional<std::string> ExportFixesPath;
  std::optional<std::string> WorkerOutput;
  std::optional<Shard> Slice;
  std::string SourceRoot; // absolute
  // Changed-only runs: the units that are or include a changed file.
  std::optional<std::string> ChangedSince; // a git revision
  std::optional<std::string> FilesFrom;    // a list of changed files
  bool ChangedLinesOnly = false;
  // The result cache: on when a directory or a remote is given, or --cache.
  std::optional<std::string> CacheDirectory;
  std::optional<std::string> RemoteCacheUrl;
  uint64_t CacheMaxBytes = 0;
  unsigned RemoteTimeoutMs = 0;
  bool CacheStats = false;
  unsigned Jobs = 0;      // 0: one per core
  bool Fix = false;
  bool Quiet = false;
  bool ListChecks = false;

  bool usesCompilationDatabase() const { return BuildPath.has_value(); }
};

} // namespace placelint::tool
