// Analysing only what a change touches: the files changed since a git
// revision (or listed in a file), the units of the compile database that
// are or include one of them, and the findings on changed lines.
#pragma once

#include "Report.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace placelint::tool {

// The changed files (real absolute paths) and, for each, its changed lines
// as closed ranges; a file with no ranges changed as a whole (new, or
// listed by --files-from).
struct ChangeSet {
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Files;
  bool contains(llvm::StringRef RealPath) const { return Files.count(RealPath.str()) != 0; }
  bool containsLine(llvm::StringRef RealPath, unsigned Line) const;
};

// `git diff REF` of the work tree holding SourceRoot (committed, staged and
// unstaged changes), and its untracked files.
llvm::Expected<ChangeSet> changesSinceRevision(llvm::StringRef Revision,
                                               llvm::StringRef SourceRoot);

// One path a line, relative ones against SourceRoot; blank lines skipped.
llvm::Expected<ChangeSet> changesFromList(llvm::StringRef ListFile, llvm::StringRef SourceRoot);

struct UnitSelection {
  std::vector<std::string> Changed;   // to analyse
  std::vector<std::string> Unchanged; // skipped
};

// Splits Units into those that are or include a changed file and the rest,
// with clang's dependency scanner (the preprocessor over sources reduced to
// their directives: no parse, no analysis), Jobs units at once. A unit the
// scanner cannot process is kept: its analysis reports why.
UnitSelection selectChangedUnits(const clang::tooling::CompilationDatabase &Database,
                                 llvm::ArrayRef<std::string> Units, const ChangeSet &Changes,
                                 unsigned Jobs);

// Drops the findings that are not on a changed line.
void keepChangedLines(RunReport &Report, const ChangeSet &Changes);

} // namespace placelint::tool
