// Runs one worker process per translation unit, N at a time. A worker is
// this same executable with --worker-output; whatever happens to it (a
// crash, garbage output) becomes a notification for its unit, never the
// end of the run. Results come back in the order of the inputs, so the
// report does not depend on -j.
#pragma once

#include "Finding.h"
#include "ResultCache.h"

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace placelint::tool {

struct WorkerInvocation {
  std::string Executable;
  std::vector<std::string> ArgsBeforeFile; // options shared by every unit
  std::vector<std::string> ArgsAfterFile;  // e.g. "-p DIR" or "-- COMPILE-ARGS"
};

// Called once per finished unit, from one thread at a time.
using ProgressCallback = std::function<void(unsigned Done, unsigned Total, llvm::StringRef File)>;

// With a cache, each unit is looked up first (under the key UnitKey gives
// it) and analysed only on a miss; what is analysed is stored.
struct UnitCache {
  ResultCache &Results;
  std::function<std::string(llvm::StringRef File)> UnitKey;
};

std::vector<UnitReport> runWorkers(llvm::ArrayRef<std::string> Files,
                                   const WorkerInvocation &Invocation, unsigned Jobs,
                                   const ProgressCallback &Progress,
                                   std::optional<UnitCache> Cache = std::nullopt);

} // namespace placelint::tool
