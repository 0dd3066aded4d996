// The transforms: each rewrites a program the way real projects shape code,
// keeping what it does, and so what the analyzer must find in it. A
// transform rewrites every site it applies to (or, for the whole-program
// ones, every function it applies to) and says false when there is none.
#pragma once

#include "Edit.h"

#include <functional>
#include <string>
#include <vector>

namespace placelint::reshape {

struct Transform {
  std::string Name;
  std::string Summary;
  std::function<bool(Edit &, const std::vector<Site> &)> Apply;
};

/// Every transform, by family: extraction into helpers, members and
/// callables (Extract.cpp); wrappers in control flow (Wrap.cpp); holders,
/// aliases and moves of an operand (Hold.cpp); module shapes (Module.cpp);
/// a helper inlined, independent statements reordered (Inline.cpp); names,
/// unrelated code and the program's own helpers (Whole.cpp).
const std::vector<Transform> &transforms();

void addExtractTransforms(std::vector<Transform> &Into);
void addWrapTransforms(std::vector<Transform> &Into);
void addHoldTransforms(std::vector<Transform> &Into);
void addModuleTransforms(std::vector<Transform> &Into);
void addInlineTransforms(std::vector<Transform> &Into);
void addWholeProgramTransforms(std::vector<Transform> &Into);

/// A statement as code that can move: for `T x = init;`, split into the
/// declaration `T x;`, which stays, and `x = init;`, which moves.
struct MovableStatement {
  std::string Declaration; ///< empty unless split
  std::string Body;        ///< the statement, without its trailing comment
  std::string Trailing;    ///< the comment that ended its line (a marker), or empty
};
/// Null when the site's code cannot be moved out of its place (a jump out of
/// it, or a declaration that cannot be split and Split was asked).
std::optional<MovableStatement> movable(const Program &P, const Site &S, bool SplitDeclaration);
/// The site's value (an initializer, a returned value) as a range of the
/// file; invalid when there is none or a marker sits between the
/// statement's start and it.
clang::CharSourceRange valueRange(const Program &P, const Site &S);

} // namespace placelint::reshape
