#include "SourceFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace placelint::tool {

SourceFile::SourceFile(std::unique_ptr<llvm::MemoryBuffer> B) : Buffer(std::move(B)) {
  llvm::StringRef Text = Buffer->getBuffer();
  LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

std::pair<unsigned, unsigned> SourceFile::lineAndColumn(unsigned Offset) const {
  Offset = std::min<unsigned>(Offset, text().size());
  auto Next = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  unsigned LineIndex = (Next - LineStarts.begin()) - 1;
  return {LineIndex + 1, Offset - LineStarts[LineIndex] + 1};
}

llvm::StringRef SourceFile::lineText(unsigned Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return {};
  llvm::StringRef Rest = text().drop_front(LineStarts[Line - 1]);
  return Rest.take_until([](char C) { return C == '\n' || C == '\r'; });
}

const SourceFile *SourceCache::get(llvm::StringRef Path) {
  auto [It, Inserted] = Files.try_emplace(Path);
  if (Inserted) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (Buffer)
      It->second = std::make_unique<SourceFile>(std::move(*Buffer));
  }
  return It->second.get();
}

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> Result(Path);
  llvm::sys::fs::make_absolute(Result);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  std::string Absolute = absolutePath(Path);
  std::string Prefix = absolutePath(Root);
  if (!llvm::StringRef(Prefix).ends_with(llvm::sys::path::get_separator()))
    Prefix += llvm::sys::path::get_separator();
  llvm::StringRef Candidate(Absolute);
  if (!Candidate.consume_front(Prefix))
    return {};
  return std::string(Candidate);
}

std::string displayPath(llvm::StringRef Path, llvm::StringRef Root) {
  std::string Relative = relativeTo(Path, Root);
  return Relative.empty() ? absolutePath(Path) : Relative;
}

} // namespace placelint::tool
