// Read-only access to the analysed sources: offset -> line/column, line
// text for carets, and paths relative to the source root.
#pragma once

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace placelint::tool {

class SourceFile {
public:
  explicit SourceFile(std::unique_ptr<llvm::MemoryBuffer> Buffer);

  llvm::StringRef text() const { return Buffer->getBuffer(); }
  // 1-based line and byte column of a byte offset (clamped to the end).
  std::pair<unsigned, unsigned> lineAndColumn(unsigned Offset) const;
  // The text of a 1-based line, without its line break.
  llvm::StringRef lineText(unsigned Line) const;

private:
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::vector<unsigned> LineStarts;
};

class SourceCache {
public:
  // Null when the file cannot be read.
  const SourceFile *get(llvm::StringRef Path);

private:
  llvm::StringMap<std::unique_ptr<SourceFile>> Files;
};

// Makes Path absolute (against the current directory) and normalises it.
std::string absolutePath(llvm::StringRef Path);
// Path relative to Root when it lies under Root, otherwise empty.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);
// Path relative to Root when under it, otherwise Path made absolute.
std::string displayPath(llvm::StringRef Path, llvm::StringRef Root);

} // namespace placelint::tool
