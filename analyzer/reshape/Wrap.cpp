// Wrappers: the statement stays where it is, inside a callable (a lambda
// called at once or later, a std::function kept in a struct, the callback of
// a std algorithm) or a control-flow shape that runs it exactly as before (a
// one-trip loop, an if whose branches do the same, a try block, a switch, a
// guard with an early return that is never taken). A declaration is split
// first: `T x;` stays, `x = init;` is wrapped.
#include "Transforms.h"

namespace placelint::reshape {

using namespace clang;

namespace {

/// A condition the analyzer cannot decide and that is false when the
/// program runs: the variable is not set by anything that runs it.
const char *const UndecidableCondition = "std::getenv(\"PLACELINT_RESHAPE_NEVER_SET\") != nullptr";

using Wrapper = std::function<std::optional<std::pair<std::string, std::string>>(Edit &, const Site &,
                                                                                  const MovableStatement &)>;

/// Replaces each site with Before + its statement + After, keeping the
/// trailing comment on the statement's last line.
bool wrap(Edit &E, const std::vector<Site> &Sites, const Wrapper &Around) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    std::optional<MovableStatement> Moved = movable(P, S, /*SplitDeclaration=*/true);
    if (!Moved)
      continue;
    auto Parts = Around(E, S, *Moved);
    if (!Parts)
      continue;
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Text = Moved->Declaration.empty() ? "" : Moved->Declaration + "\n" + Indent;
    Text += Parts->first + Moved->Body + Parts->second;
    if (!Moved->Trailing.empty())
      Text += " " + Moved->Trailing;
    E.replace(S.withTrailing(), Text);
    Applied = true;
  }
  return Applied;
}

Transform wrapper(const char *Name, const char *Summary, Wrapper Around) {
  return {Name, Summary,
          [Around](Edit &E, const std::vector<Site> &Sites) { return wrap(E, Sites, Around); }};
}

using Parts = std::optional<std::pair<std::string, std::string>>;

/// `[&] { return value; }()` for a declaration or return, `[&] { stmt }();`
/// otherwise.
bool lambdaCalledAtOnce(Edit &E, const std::vector<Site> &Sites) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    if (S.Jumps)
      continue;
    if (S.Value) {
      CharSourceRange Init = valueRange(P, S);
      if (Init.isInvalid())
        continue;
      E.replace(Init, "[&] { return " + P.text(Init) + "; }()");
    } else if (!isa<DeclStmt>(S.Statement) && !S.Returns) {
      E.insertBefore(S.Range.getBegin(), "[&] { ");
      E.insertAfter(S.Range.getEnd(), " }();");
    } else {
      continue;
    }
    Applied = true;
  }
  return Applied;
}

/// The statement (or the initializer) moves into a callable defined first
/// and called on the next line: a named lambda, or a std::function member.
bool callableCalledLater(Edit &E, const std::vector<Site> &Sites, bool InStruct) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    if (S.Jumps)
      continue;
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Body, Returns = "void";
    CharSourceRange Init;
    if (S.Value) {
      Init = valueRange(P, S);
      if (Init.isInvalid())
        continue;
      Body = "return " + P.text(Init) + ";";
      Returns = spell(S.ValueType, P.context());
    } else if (!isa<DeclStmt>(S.Statement) && !S.Returns) {
      Body = P.text(S.Range);
    } else {
      continue;
    }
    if (S.Trailing.isValid())
      Body += " " + P.text(S.Trailing);
    std::string Name = E.fresh("reshape_step");
    std::string Lambda = "[&] {\n" + Indent + "  " + Body + "\n" + Indent + "}";
    std::string Definition, Call;
    if (InStruct) {
      E.include("functional");
      std::string Type = E.fresh("ReshapeTask");
      Definition = "struct " + Type + " {\n" + Indent + "  std::function<" + Returns + "()> run;\n" + Indent + "};\n" +
                   Indent + Type + " " + Name + "{" + Lambda + "};";
      Call = Name + ".run()";
    } else {
      Definition = "auto " + Name + " = " + Lambda + ";";
      Call = Name + "()";
    }
    if (Init.isValid()) {
      E.insertBefore(S.Range.getBegin(), Definition + "\n" + Indent);
      E.replace(Init, Call);
      if (S.Trailing.isValid())
        E.replace(S.trailingWithSpace(), "");
    } else {
      E.replace(S.withTrailing(), Definition + "\n" + Indent + Call + ";");
    }
    Applied = true;
  }
  return Applied;
}

/// The value of `T x = init;` or `return value;` becomes the one result of
/// std::transform over one element.
bool transformCallback(Edit &E, const std::vector<Site> &Sites) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    if (!S.Value || S.Jumps)
      continue;
    CharSourceRange Init = valueRange(P, S);
    if (Init.isInvalid())
      continue;
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Type = spell(S.ValueType, P.context());
    std::string Input = E.fresh("reshape_inputs"), Output = E.fresh("reshape_outputs");
    std::string Trailing = S.Trailing.isValid() ? " " + P.text(S.Trailing) : "";
    for (const char *Header : {"algorithm", "array", "iterator", "vector"})
      E.include(Header);
    E.insertBefore(S.Range.getBegin(),
                   "std::array<int, 1> " + Input + "{};\n" + Indent + "std::vector<" + Type + "> " + Output + ";\n" +
                       Indent + "std::transform(" + Input + ".begin(), " + Input + ".end(), std::back_inserter(" +
                       Output + "), [&](int) {\n" + Indent + "  return " + P.text(Init) + ";" + Trailing + "\n" +
                       Indent + "});\n" + Indent);
    E.replace(Init, Output + "[0]");
    if (S.Trailing.isValid())
      E.replace(S.trailingWithSpace(), "");
    Applied = true;
  }
  return Applied;
}

/// A guard that returns early on a path that never runs; the return value
/// is one every such function can give.
Parts earlyReturn(Edit &E, const Site &S, const MovableStatement &) {
  QualType Returns = S.Function->getReturnType();
  std::string Value;
  if (Returns->isVoidType())
    Value = "";
  else if (Returns->isIntegerType() || Returns->isBooleanType())
    Value = " 0";
  else
    return std::nullopt;
  E.include("cstdlib");
  std::string Indent = E.program().indentation(S.Range.getBegin());
  return std::make_pair("if (" + std::string(UndecidableCondition) + ") {\n" + Indent + "  return" + Value + ";\n" +
                            Indent + "}\n" + Indent,
                        std::string());
}

} // namespace

void addWrapTransforms(std::vector<Transform> &Into) {
  Into.push_back({"lambda-now", "inside a lambda called at once", lambdaCalledAtOnce});
  Into.push_back({"lambda-named", "inside a named lambda called on the next line",
                  [](Edit &E, const std::vector<Site> &Sites) { return callableCalledLater(E, Sites, false); }});
  Into.push_back({"std-function", "inside a std::function kept in a struct, called later",
                  [](Edit &E, const std::vector<Site> &Sites) { return callableCalledLater(E, Sites, true); }});
  Into.push_back(wrapper("for-each", "inside the callback of std::for_each over one element",
                         [](Edit &E, const Site &, const MovableStatement &) -> Parts {
                           E.include("algorithm");
                           E.include("array");
                           std::string Once = E.fresh("reshape_once");
                           return std::make_pair("std::array<int, 1> " + Once + "{}; std::for_each(" + Once +
                                                     ".begin(), " + Once + ".end(), [&](int) { ",
                                                 std::string(" });"));
                         }));
  Into.push_back({"transform", "a declaration's value as the result of std::transform", transformCallback});
  Into.push_back(wrapper("do-once", "inside a do { } while (false) loop",
                         [](Edit &, const Site &, const MovableStatement &) -> Parts {
                           return std::make_pair(std::string("do { "), std::string(" } while (false);"));
                         }));
  Into.push_back(wrapper("if-same", "in both branches of an if the analyzer cannot decide",
                         [](Edit &E, const Site &, const MovableStatement &Moved) -> Parts {
                           E.include("cstdlib");
                           return std::make_pair("if (" + std::string(UndecidableCondition) + ") { ",
                                                 " } else { " + Moved.Body + " }");
                         }));
  Into.push_back(wrapper("try-catch", "inside a try block whose handler rethrows",
                         [](Edit &E, const Site &, const MovableStatement &) -> Parts {
                           E.include("exception");
                           return std::make_pair(std::string("try { "),
                                                 std::string(" } catch (const std::exception &) { throw; }"));
                         }));
  Into.push_back(wrapper("switch-case", "inside the case a switch takes",
                         [](Edit &, const Site &, const MovableStatement &) -> Parts {
                           return std::make_pair(std::string("switch (0) { case 0: { "),
                                                 std::string(" } break; default: break; }"));
                         }));
  Into.push_back(wrapper("early-return", "after a guard that returns early on a path never taken", earlyReturn));
  Into.push_back(wrapper("split-declaration", "a declaration split from its assignment",
                         [](Edit &, const Site &S, const MovableStatement &) -> Parts {
                           if (!S.Declared)
                             return std::nullopt;
                           return std::make_pair(std::string(), std::string());
                         }));
}

} // namespace placelint::reshape
