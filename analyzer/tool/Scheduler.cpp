#include "Scheduler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <mutex>

namespace placelint::tool {

namespace {

// How much of a failed worker's output to quote.
constexpr size_t kQuotedOutputLines = 20;

// Removes a temporary file when it goes out of scope.
class TemporaryFile {
public:
  explicit TemporaryFile(llvm::StringRef Suffix) {
    if (llvm::sys::fs::createTemporaryFile("placelint-unit", Suffix, Path))
      Path.clear();
  }
  ~TemporaryFile() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
  bool valid() const { return !Path.empty(); }
  llvm::StringRef path() const { return Path; }

private:
  llvm::SmallString<128> Path;
};

std::string readTail(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return {};
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().rtrim().split(Lines, '\n');
  size_t First = Lines.size() > kQuotedOutputLines ? Lines.size() - kQuotedOutputLines : 0;
  std::string Tail;
  for (size_t I = First; I < Lines.size(); ++I)
    Tail += "\n  " + Lines[I].str();
  return Tail;
}

UnitReport failedUnit(llvm::StringRef File, NotificationKind Kind, std::string Message) {
  UnitReport Report;
  Report.File = File.str();
  Report.Notifications.push_back({Kind, File.str(), std::move(Message), std::nullopt});
  return Report;
}

UnitReport runWorker(llvm::StringRef File, const WorkerInvocation &Invocation) {
  TemporaryFile Output("json"), Log("log");
  if (!Output.valid() || !Log.valid())
    return failedUnit(File, NotificationKind::ToolError, "cannot create temporary files");
  std::vector<std::string> Args{Invocation.Executable, "--worker-output=" + Output.path().str()};
  llvm::append_range(Args, Invocation.ArgsBeforeFile);
  Args.push_back(File.str());
  llvm::append_range(Args, Invocation.ArgsAfterFile);
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(), Log.path(), Log.path()};
  std::string Error;
  bool ExecutionFailed = false;
  int Status = llvm::sys::ExecuteAndWait(Invocation.Executable, ArgRefs, std::nullopt, Redirects,
                                         /*SecondsToWait=*/0, /*MemoryLimit=*/0, &Error,
                                         &ExecutionFailed);
  if (ExecutionFailed)
    return failedUnit(File, NotificationKind::ToolError, "cannot start a worker: " + Error);
  if (Status != 0) {
    std::string Why = Status < 0 ? "crashed" : "exited with status " + std::to_string(Status);
    if (!Error.empty())
      Why += " (" + Error + ")";
    return failedUnit(File, NotificationKind::Crash,
                      "the analysis " + Why + "; its last output:" + readTail(Log.path()));
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Output.path());
  if (!Buffer)
    return failedUnit(File, NotificationKind::ToolError, "the worker wrote no report");
  llvm::Expected<UnitReport> Report = parseUnitReport((*Buffer)->getBuffer());
  if (!Report)
    return failedUnit(File, NotificationKind::ToolError,
                      "unreadable worker report: " + llvm::toString(Report.takeError()));
  return std::move(*Report);
}

UnitReport runCached(llvm::StringRef File, const WorkerInvocation &Invocation,
                     const UnitCache &Cache) {
  std::string Key = Cache.UnitKey(File);
  if (std::optional<UnitReport> Cached = Cache.Results.lookup(Key, File)) {
    Cached->FromCache = true;
    return std::move(*Cached);
  }
  UnitReport Report = runWorker(File, Invocation);
  Cache.Results.store(Key, Report);
  return Report;
}

} // namespace

std::vector<UnitReport> runWorkers(llvm::ArrayRef<std::string> Files,
                                   const WorkerInvocation &Invocation, unsigned Jobs,
                                   const ProgressCallback &Progress,
                                   std::optional<UnitCache> Cache) {
  std::vector<UnitReport> Reports(Files.size());
  std::mutex ProgressMutex;
  unsigned Done = 0;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async([&, I] {
      Reports[I] =
          Cache ? runCached(Files[I], Invocation, *Cache) : runWorker(Files[I], Invocation);
      // A unit of a big library reads a thousand headers or more: held for
      // every unit until the report is built, their list would dwarf it.
      Reports[I].Inputs = {};
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Progress(++Done, Files.size(), Files[I]);
    });
  Pool.wait();
  return Reports;
}

} // namespace placelint::tool
