// A program to reshape: its text, its AST, the statements a transform may
// rewrite (sites) and what each site uses from around it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace placelint::reshape {

/// The seed's text parsed with its compile flags. The file is parsed under
/// the seed's own path, so that its quoted includes resolve as they do for
/// the seed.
class Program {
public:
  /// Parses Code; on a compile error returns null and sets Error to the first
  /// error, as "line:col: message".
  static std::unique_ptr<Program> parse(std::string Code, const std::string &FileName,
                                        const std::vector<std::string> &Flags, std::string &Error);

  const std::string &code() const { return Code; }
  clang::ASTContext &context() const { return Unit->getASTContext(); }
  clang::SourceManager &sourceManager() const { return Unit->getSourceManager(); }
  const clang::LangOptions &langOptions() const { return Unit->getLangOpts(); }
  clang::TranslationUnitDecl *translationUnit() const {
    return context().getTranslationUnitDecl();
  }

  /// Lines (1-based) holding an `// expect:` marker.
  const std::vector<unsigned> &markerLines() const { return Markers; }

  /// The file's text in a range of it.
  std::string text(clang::CharSourceRange Range) const;
  unsigned line(clang::SourceLocation Loc) const;
  /// The whitespace that starts Loc's line.
  std::string indentation(clang::SourceLocation Loc) const;
  bool inMainFile(clang::SourceLocation Loc) const;

private:
  Program(std::string Code, std::unique_ptr<clang::ASTUnit> Unit);
  std::string Code;
  std::unique_ptr<clang::ASTUnit> Unit;
  std::vector<unsigned> Markers;
};

/// A variable a site uses but does not declare.
struct SiteVariable {
  const clang::ValueDecl *Decl = nullptr;
  std::string Name;
  clang::QualType Type;
  /// Every reference to it inside the site, as written in the file.
  std::vector<clang::SourceLocation> Uses;
  /// Assigned, incremented or (for types that are not tensor handles, whose
  /// copies share storage) changed in any way inside the site: a copy
  /// would not carry the change back.
  bool Changed = false;
  /// Changed in any way, through a method included (clang's ExprMutationAnalyzer).
  bool Mutated = false;
  /// Some use cannot be rewritten in place (inside a macro's body, or in a
  /// lambda that names its captures).
  bool Pinned = false;
  /// What a member template is called on is computed from it
  /// (`x.item<float>()`): in a template on its type that call would need
  /// the `template` keyword.
  bool CallsMemberTemplate = false;
  bool Tensor = false;
  bool Device = false;
  bool Local = false; ///< a local variable or parameter (not a binding)
};

/// A statement directly inside a function's compound statement: the unit a
/// transform moves, wraps or rewrites.
struct Site {
  const clang::Stmt *Statement = nullptr;
  /// The function or lambda whose body holds it.
  const clang::FunctionDecl *Function = nullptr;
  /// The namespace-scope declaration holding it: helpers go before it.
  const clang::Decl *TopLevel = nullptr;
  /// The statement with its `;`.
  clang::CharSourceRange Range;
  /// The comment that ends the statement's last line (a marker), if any.
  clang::CharSourceRange Trailing;
  unsigned FirstLine = 0, LastLine = 0;
  /// The loops around it, innermost first.
  std::vector<const clang::Stmt *> Loops;

  /// For `T name = init;` (one variable, copy-initialised): the variable.
  const clang::VarDecl *Declared = nullptr;
  /// The value the statement computes: Declared's initializer, or what a
  /// `return` gives; and its type. A transform may move the value alone.
  const clang::Expr *Value = nullptr;
  clang::QualType ValueType;
  /// The statement is a return: it cannot be wrapped in a callable.
  bool Returns = false;

  std::vector<SiteVariable> Variables;
  bool UsesThis = false;
  /// A return inside it, or a break/continue/goto leaving it.
  bool Jumps = false;
  /// A variable whose type a helper outside the function cannot spell.
  bool Unnamable = false;

  /// The range from the statement's start to its end of line, with the
  /// trailing comment.
  clang::CharSourceRange withTrailing() const;
  /// The trailing comment with the space before it (invalid if none).
  clang::CharSourceRange trailingWithSpace() const;
};

/// Where the transforms apply: the statements holding the markers in a buggy
/// program, and in a program without markers (a correct look-alike) its
/// statements that compute with tensors, at most Limit of them.
std::vector<Site> findSites(const Program &P, unsigned Limit = 6);
/// Every statement directly inside a compound statement of a function
/// written in the main file, read as a site.
std::vector<Site> allStatements(const Program &P);
/// Another statement of the compound statement that holds Context, read as a
/// site in Context's function; null when it cannot be one (a label, a
/// statement from a macro, a declaration of several variables).
std::optional<Site> siteFor(const Program &P, const Site &Context, const clang::Stmt *Statement);
/// True when the statement computes a value of a tensor type.
bool computesWithTensors(const clang::Stmt *Statement);

/// The type as code outside the function can write it (fully qualified,
/// `auto` resolved).
std::string spell(clang::QualType Type, const clang::ASTContext &Context);
bool isTensorType(clang::QualType Type);
bool isDeviceType(clang::QualType Type);
/// True when the type is a class api.def lists with this role ("Module", ...).
bool isApiClass(clang::QualType Type, llvm::StringRef Role);
bool isCopyable(clang::QualType Type);
bool isDefaultConstructible(clang::QualType Type);
/// The namespace whose factories make tensors in this program: "pl" or "torch".
std::string tensorNamespace(const Program &P);

} // namespace placelint::reshape
