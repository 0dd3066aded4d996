// The two roles of the executable: the driver of a run (select units,
// schedule workers, combine, filter, fix, emit) and the worker that
// analyses one unit in-process.
#pragma once

#include "Options.h"

namespace placelint::tool {

int runAnalysis(const ToolOptions &Options);
int runWorker(const ToolOptions &Options);

} // namespace placelint::tool
