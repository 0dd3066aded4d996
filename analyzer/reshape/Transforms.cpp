#include "Transforms.h"

#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace placelint::reshape {

using namespace clang;

const std::vector<Transform> &transforms() {
  static const std::vector<Transform> All = [] {
    std::vector<Transform> Into;
    addExtractTransforms(Into);
    addWrapTransforms(Into);
    addHoldTransforms(Into);
    addModuleTransforms(Into);
    addInlineTransforms(Into);
    addWholeProgramTransforms(Into);
    return Into;
  }();
  return All;
}

CharSourceRange valueRange(const Program &P, const Site &S) {
  if (!S.Value)
    return {};
  CharSourceRange Init = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S.Value->getSourceRange()),
                                                  P.sourceManager(), P.langOptions());
  if (Init.isInvalid())
    return {};
  unsigned InitLine = P.line(Init.getBegin());
  const std::vector<unsigned> &Markers = P.markerLines();
  if (std::any_of(Markers.begin(), Markers.end(),
                  [&](unsigned Line) { return Line >= S.FirstLine && Line < InitLine; }))
    return {};
  return Init;
}

std::optional<MovableStatement> movable(const Program &P, const Site &S, bool SplitDeclaration) {
  if (S.Jumps || S.Returns)
    return std::nullopt;
  MovableStatement Moved;
  if (S.Trailing.isValid())
    Moved.Trailing = P.text(S.Trailing);
  if (!SplitDeclaration || !isa<DeclStmt>(S.Statement)) {
    Moved.Body = P.text(S.Range);
    return Moved;
  }
  if (!S.Declared)
    return std::nullopt;
  CharSourceRange Init = valueRange(P, S);
  QualType Type = S.ValueType;
  if (Init.isInvalid() || !isDefaultConstructible(Type) || Type->isArrayType())
    return std::nullopt;
  std::string Name = S.Declared->getNameAsString();
  Moved.Declaration = spell(Type, P.context()) + " " + Name + ";";
  Moved.Body = Name + " = " + P.text(Init) + ";";
  return Moved;
}

} // namespace placelint::reshape
