// Runs the device analysis on a snippet that includes the runtime's
// <pl/pl.h> or the lit tests' mock of libtorch (<torch/torch.h>, from
// test/analyzer/Inputs), and renders what it found as strings that tests
// compare.
#pragma once

#include "placelint/analysis/ApiModel.h"
#include "placelint/analysis/DeviceLattice.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace placelint::analysis::testing {

struct AnalysisRun {
  bool Analyzed = false;
  // One line per finding, e.g.
  //   mixed L6 'a'@cuda(moved L4) 'b'@cpu(created L5) in operator+
  //   discarded L3 to 't' fixable
  //   invariant L7 'w' to the device in 'dev' loop L5
  //   roundtrip L9 'g' back to cpu via cuda first L8 loop L5
  //   sync L10 'g.sum()' from cuda loop L5
  //   pageable L6 'x'
  std::vector<std::string> Findings;
  // placement-create-then-move's, apart (most snippets make tensors with
  // factories and move them, which is not what they test), e.g.
  //   created L3 moved L4 't' fixable
  std::vector<std::string> CreatedThenMoved;
  // The fact of the argument of each `probe(...)` call, in source order.
  std::vector<std::string> ProbeDevices;
  std::vector<ZeroDim> ProbeDims;
};

// Parses Code (C++20) and analyses the function named FunctionName.
AnalysisRun analyzeFunction(llvm::StringRef Code, llvm::StringRef FunctionName,
                            ApiProfile Profile = ApiProfile::Auto);

// The first two lines of a `pl` snippet: the runtime's include, `using namespace
// pl;` and the test helpers (`probe`, `use`, `fill`, `load`, `opaque`,
// `pickDevice`). Lines in the findings count from the include as 1.
extern const char *const PlSnippetPrelude;

// The compiler arguments that parse a snippet against the runtime's headers
// and the libtorch mock.
std::vector<std::string> snippetArgs();

} // namespace placelint::analysis::testing
