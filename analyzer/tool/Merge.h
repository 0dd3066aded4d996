// `placelint merge OUT.sarif IN.sarif...`: joins the SARIF logs of the
// shards of one run into one log, as a CI matrix needs before uploading.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace placelint::tool {

struct MergeOutcome {
  size_t Results = 0;
  bool ExecutionSuccessful = true;
};

// Results are de-duplicated (shards share headers); the rules, the source
// root and the tool come from the first input, which all must agree with.
llvm::Expected<MergeOutcome> mergeSarif(llvm::StringRef Output,
                                        llvm::ArrayRef<std::string> Inputs);

} // namespace placelint::tool
