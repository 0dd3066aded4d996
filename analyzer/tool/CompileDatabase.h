// Choosing the translation units of a run from a compilation database:
// the files under the requested paths, in a stable order, optionally one
// deterministic shard of them; and the commands, with their relative paths
// made absolute.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace placelint::tool {

// The I-th (1-based) of Count slices, as CI matrices number their jobs.
struct Shard {
  unsigned Index = 1;
  unsigned Count = 1;
};

// Parses "I/N" with 1 <= I <= N.
llvm::Expected<Shard> parseShard(llvm::StringRef Text);

// Every file in Database under one of Paths (files or directories; the
// source root when Paths is empty), sorted, then sliced by Shard. A path
// that selects nothing is an error, so typos do not pass silently.
llvm::Expected<std::vector<std::string>>
selectUnits(const clang::tooling::CompilationDatabase &Database, llvm::StringRef SourceRoot,
            llvm::ArrayRef<std::string> Paths, std::optional<Shard> Slice);

// Command with its relative include directories (-I, -isystem, -iquote,
// -idirafter, --include-directory; joined or separate) and
// its relative source file made absolute against its directory. clang-tidy
// names a header by the path it was found under: under `-Isrc` that path is
// relative, a --header-filter anchored at the project root (placelint's
// default) does not match it, and the header's findings would be dropped
// without a word.
clang::tooling::CompileCommand withAbsolutePaths(clang::tooling::CompileCommand Command);

// Inner's commands, each through withAbsolutePaths.
std::unique_ptr<clang::tooling::CompilationDatabase>
withAbsolutePaths(std::unique_ptr<clang::tooling::CompilationDatabase> Inner);

} // namespace placelint::tool
