// The three report formats. Each writes a whole RunReport to a stream.
#pragma once

#include "Report.h"
#include "SourceFiles.h"

#include "llvm/Support/raw_ostream.h"

namespace placelint::tool {

// clang's diagnostic format, as clang-tidy prints it: the location line,
// the source line and a caret, for each finding, note and compile error.
void emitText(const RunReport &Report, SourceCache &Sources, llvm::raw_ostream &OS);

// The findings, notifications and summary as one JSON document.
void emitJson(const RunReport &Report, llvm::raw_ostream &OS);

// SARIF 2.1.0, paths relative to %SRCROOT% (the source root).
void emitSarif(const RunReport &Report, SourceCache &Sources, llvm::raw_ostream &OS);

} // namespace placelint::tool
