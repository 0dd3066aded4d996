#include "Edit.h"

#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/SourceCode.h"

namespace placelint::reshape {

using namespace clang;

Edit::Edit(const Program &P) : P(P), R(P.sourceManager(), P.langOptions()) {}

std::string Edit::fresh(llvm::StringRef Stem) {
  for (unsigned Number = 0;; ++Number) {
    std::string Name = Stem.str() + std::to_string(Number);
    if (P.code().find(Name) == std::string::npos && Names.insert(Name).second)
      return Name;
  }
}

void Edit::replaceUses(const SiteVariable &Variable, llvm::StringRef Text) {
  unsigned Length = Variable.Name.size();
  for (SourceLocation Use : Variable.Uses)
    R.ReplaceText(Use, Length, Text);
}

std::string Edit::result(llvm::StringRef Made) {
  const SourceManager &SM = P.sourceManager();
  ASTContext &Context = P.context();
  for (const auto &[TopLevel, Code] : Before) {
    // At the start of the declaration's line, after any template head.
    SourceLocation Start = SM.getExpansionLoc(TopLevel->getBeginLoc());
    Start = Start.getLocWithOffset(-static_cast<int>(SM.getExpansionColumnNumber(Start) - 1));
    R.InsertTextBefore(Start, Code + "\n");
  }
  for (const auto &[TopLevel, Code] : After) {
    CharSourceRange Whole = Lexer::makeFileCharRange(tooling::getExtendedRange(*TopLevel, tok::semi, Context), SM,
                                                     P.langOptions());
    R.InsertTextAfter(Whole.getEnd(), "\n\n" + Code);
  }
  FileID Main = SM.getMainFileID();
  if (!End.empty())
    R.InsertTextAfter(SM.getLocForEndOfFile(Main), "\n" + End);
  std::string Top = HeaderPrefix.str() + Made.str() + "\n";
  // A variant of a variant names the whole chain in its one header line.
  llvm::StringRef Code = P.code();
  if (Code.starts_with(HeaderPrefix))
    R.RemoveText(SM.getLocForStartOfFile(Main), Code.find('\n') + 1);
  for (const std::string &Header : Includes)
    Top += "#include <" + Header + ">\n";
  R.InsertTextBefore(SM.getLocForStartOfFile(Main), Top);
  const RewriteBuffer *Buffer = R.getRewriteBufferFor(Main);
  return Buffer ? std::string(Buffer->begin(), Buffer->end()) : Top + P.code();
}

} // namespace placelint::reshape
