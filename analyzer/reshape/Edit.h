// One rewrite of a program: edits in place (clang::Rewriter), declarations
// added at namespace scope around a site's function, headers to include,
// and fresh names that the program does not use.
#pragma once

#include "Program.h"

#include "clang/Rewrite/Core/Rewriter.h"

#include <map>
#include <set>
#include <string>

namespace placelint::reshape {

/// How the first line of every variant starts.
inline constexpr llvm::StringLiteral HeaderPrefix = "// placelint-reshape: ";

class Edit {
public:
  explicit Edit(const Program &P);

  const Program &program() const { return P; }
  clang::Rewriter &rewriter() { return R; }

  /// A name not yet in the program nor handed out before: Stem0, Stem1, ...
  std::string fresh(llvm::StringRef Stem);
  void include(llvm::StringRef Header) { Includes.insert(Header.str()); }
  /// Code to put at namespace scope before, or after, the declaration.
  void before(const clang::Decl *TopLevel, llvm::StringRef Code) { Before[TopLevel] += Code; }
  void after(const clang::Decl *TopLevel, llvm::StringRef Code) { After[TopLevel] += Code; }
  /// Code to put at the end of the file.
  void atEnd(llvm::StringRef Code) { End += Code; }

  void replace(clang::CharSourceRange Range, llvm::StringRef Text) { R.ReplaceText(Range, Text); }
  void insertBefore(clang::SourceLocation Loc, llvm::StringRef Text) { R.InsertTextBefore(Loc, Text); }
  void insertAfter(clang::SourceLocation Loc, llvm::StringRef Text) { R.InsertTextAfter(Loc, Text); }
  /// Replaces each use of a variable inside a site with Text.
  void replaceUses(const SiteVariable &Variable, llvm::StringRef Text);

  /// The rewritten program, with a first line naming what made it (HeaderPrefix + Made).
  std::string result(llvm::StringRef Made);

private:
  const Program &P;
  clang::Rewriter R;
  std::set<std::string> Names;
  std::set<std::string> Includes;
  std::map<const clang::Decl *, std::string> Before, After;
  std::string End;
};

} // namespace placelint::reshape
