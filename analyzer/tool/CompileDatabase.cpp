#include "CompileDatabase.h"

#include "SourceFiles.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace placelint::tool {

llvm::Expected<Shard> parseShard(llvm::StringRef Text) {
  auto [IndexText, CountText] = Text.split('/');
  Shard Result;
  if (IndexText.getAsInteger(10, Result.Index) || CountText.getAsInteger(10, Result.Count) ||
      Result.Count == 0 || Result.Index == 0 || Result.Index > Result.Count)
    return llvm::createStringError(
        "invalid --shard '%s': expected I/N with 1 <= I <= N, e.g. --shard=2/4",
        Text.str().c_str());
  return Result;
}

namespace {

bool isUnder(llvm::StringRef File, llvm::StringRef Path) {
  return File == Path || !relativeTo(File, Path).empty();
}

} // namespace

llvm::Expected<std::vector<std::string>>
selectUnits(const clang::tooling::CompilationDatabase &Database, llvm::StringRef SourceRoot,
            llvm::ArrayRef<std::string> Paths, std::optional<Shard> Slice) {
  std::vector<std::string> Files;
  for (const std::string &File : Database.getAllFiles())
    Files.push_back(absolutePath(File));
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());

  std::vector<std::string> Roots;
  for (const std::string &Path : Paths)
    Roots.push_back(absolutePath(Path));
  if (Roots.empty())
    Roots.push_back(absolutePath(SourceRoot));

  std::vector<std::string> Selected;
  for (const std::string &Root : Roots) {
    bool Matched = false;
    for (const std::string &File : Files)
      if (isUnder(File, Root)) {
        Selected.push_back(File);
        Matched = true;
      }
    if (!Matched)
      return llvm::createStringError("no translation unit of the compilation database is at or "
                                     "under '%s'",
                                     Root.c_str());
  }
  llvm::sort(Selected);
  Selected.erase(std::unique(Selected.begin(), Selected.end()), Selected.end());
  if (!Slice)
    return Selected;
  std::vector<std::string> Sliced;
  for (size_t I = 0; I < Selected.size(); ++I)
    if (I % Slice->Count == Slice->Index - 1)
      Sliced.push_back(Selected[I]);
  return Sliced;
}

} // namespace placelint::tool
