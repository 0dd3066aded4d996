#include "Fingerprint.h"

#include "SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>

namespace placelint::tool {

namespace {

// Statements longer than this are cut; enough to tell statements apart.
constexpr size_t kMaxStatementReach = 400;

bool isStatementBoundary(char C) { return C == ';' || C == '{' || C == '}'; }

std::string withoutComments(llvm::StringRef Text) {
  std::string Result;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text.substr(I).starts_with("//")) {
      I = std::min(Text.find('\n', I), Text.size());
      Result += ' ';
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? Text.size() : End + 1;
      Result += ' ';
      continue;
    }
    Result += Text[I];
  }
  return Result;
}

std::string collapsedWhitespace(llvm::StringRef Text) {
  std::string Result;
  bool PendingSpace = false;
  for (char C : Text) {
    if (llvm::isSpace(C)) {
      PendingSpace = !Result.empty();
      continue;
    }
    if (PendingSpace)
      Result += ' ';
    PendingSpace = false;
    Result += C;
  }
  return Result;
}

} // namespace

std::string normalisedStatement(llvm::StringRef Code, unsigned Offset) {
  size_t Anchor = std::min<size_t>(Offset, Code.size());
  size_t Begin = Anchor;
  int Depth = 0;
  while (Begin > 0 && Anchor - Begin < kMaxStatementReach) {
    char C = Code[Begin - 1];
    if (C == ')')
      ++Depth;
    else if (C == '(')
      --Depth;
    else if (Depth <= 0 && isStatementBoundary(C))
      break;
    --Begin;
  }
  size_t End = Anchor;
  Depth = 0;
  while (End < Code.size() && End - Anchor < kMaxStatementReach) {
    char C = Code[End];
    if (C == '(')
      ++Depth;
    else if (C == ')')
      --Depth;
    else if (Depth <= 0 && isStatementBoundary(C))
      break;
    ++End;
  }
  return collapsedWhitespace(withoutComments(Code.slice(Begin, End)));
}

void assignFingerprints(std::vector<Finding> &Findings, llvm::StringRef SourceRoot) {
  // Findings grouped by statement hash, each group ordered by position.
  std::map<uint64_t, std::vector<Finding *>> Groups;
  for (Finding &F : Findings) {
    std::string File = F.Location ? displayPath(F.Location->File, SourceRoot) : "";
    std::string Key = F.Rule + '\0' + File + '\0' + F.Statement;
    if (!F.Location)
      Key += '\0' + F.Message;
    Groups[llvm::xxh3_64bits(Key)].push_back(&F);
  }
  for (auto &[Hash, Group] : Groups) {
    // Findings in one group differ in position or, at one position, in message.
    llvm::sort(Group, [](const Finding *A, const Finding *B) {
      return std::make_pair(A->Location ? A->Location->Offset : 0, llvm::StringRef(A->Message)) <
             std::make_pair(B->Location ? B->Location->Offset : 0, llvm::StringRef(B->Message));
    });
    for (size_t Index = 0; Index < Group.size(); ++Index)
      Group[Index]->Fingerprint = llvm::utohexstr(Hash, /*LowerCase=*/true, /*Width=*/16) + ":" +
                                  std::to_string(Index);
  }
}

} // namespace placelint::tool
