// Holders: the statement reads its tensors and devices through something
// that holds them: a container (by index or key), a pair or tuple (through
// structured bindings), an optional, a shared_ptr, a config struct, a
// function returning it; or through a reference alias, or a std::move. The
// holder is filled just before the statement; the variable itself is left
// as it was, so the rest of the program is unchanged.
#include "Transforms.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::reshape {

using namespace clang;

namespace {

/// How a holder is declared and read: Declare(E, site, type, holder,
/// variable) and Read(holder, variable).
struct Holder {
  const char *Name;
  const char *Summary;
  std::vector<const char *> Headers;
  std::function<std::string(Edit &, const Site &, const std::string &, const std::string &, const std::string &)>
      Declare;
  std::function<std::string(const std::string &, const std::string &)> Read;
  /// Reads only: the statement must not change the operand through it.
  bool ReadOnly = false;
};

bool holdable(const SiteVariable &Variable, const Holder &H) {
  return (Variable.Tensor || Variable.Device) && !Variable.Changed && !Variable.Pinned && !Variable.Uses.empty() &&
         !(H.ReadOnly && Variable.Mutated);
}

bool hold(Edit &E, const std::vector<Site> &Sites, const Holder &H) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Declarations;
    for (const SiteVariable &Variable : S.Variables) {
      if (!holdable(Variable, H))
        continue;
      std::string Type = spell(Variable.Type.getNonReferenceType().getUnqualifiedType(), P.context());
      std::string Name = E.fresh("reshape_held");
      Declarations += H.Declare(E, S, Type, Name, Variable.Name) + "\n" + Indent;
      E.replaceUses(Variable, H.Read(Name, Variable.Name));
    }
    if (Declarations.empty())
      continue;
    for (const char *Header : H.Headers)
      E.include(Header);
    E.insertBefore(S.Range.getBegin(), Declarations);
    Applied = true;
  }
  return Applied;
}

const std::vector<Holder> &holders() {
  using S = const std::string &;
  static const std::vector<Holder> All = {
      {"hold-vector", "an operand kept in a std::vector and read by index", {"vector"},
       [](Edit &, const Site &, S Type, S Name, S Var) { return "std::vector<" + Type + "> " + Name + "{" + Var + "};"; },
       [](S Name, S) { return Name + "[0]"; }},
      {"hold-array", "an operand kept in a std::array and read by index", {"array"},
       [](Edit &, const Site &, S Type, S Name, S Var) { return "std::array<" + Type + ", 1> " + Name + "{" + Var + "};"; },
       [](S Name, S) { return Name + "[0]"; }},
      {"hold-map", "an operand kept in a std::map and read by key", {"map", "string"},
       [](Edit &, const Site &, S Type, S Name, S Var) {
         return "std::map<std::string, " + Type + "> " + Name + "{{\"" + Var + "\", " + Var + "}};";
       },
       [](S Name, S Var) { return Name + ".at(\"" + Var + "\")"; }},
      {"hold-unordered-map", "an operand kept in a std::unordered_map and read by key", {"unordered_map", "string"},
       [](Edit &, const Site &, S Type, S Name, S Var) {
         return "std::unordered_map<std::string, " + Type + "> " + Name + "{{\"" + Var + "\", " + Var + "}};";
       },
       [](S Name, S Var) { return Name + ".at(\"" + Var + "\")"; }},
      {"hold-pair", "an operand taken from a std::pair by a structured binding", {"utility"},
       [](Edit &E, const Site &, S, S Name, S Var) {
         return "auto [" + Name + ", " + E.fresh("reshape_tag") + "] = std::make_pair(" + Var + ", 0);";
       },
       [](S Name, S) { return Name; }},
      {"hold-tuple", "an operand kept in a std::tuple and read with std::get", {"tuple"},
       [](Edit &, const Site &, S Type, S Name, S Var) { return "std::tuple<int, " + Type + "> " + Name + "{0, " + Var + "};"; },
       [](S Name, S) { return "std::get<1>(" + Name + ")"; }},
      {"hold-optional", "an operand kept in a std::optional", {"optional"},
       [](Edit &, const Site &, S Type, S Name, S Var) { return "std::optional<" + Type + "> " + Name + "{" + Var + "};"; },
       [](S Name, S) { return Name + ".value()"; }},
      {"hold-shared-ptr", "an operand behind a std::shared_ptr", {"memory"},
       [](Edit &, const Site &, S Type, S Name, S Var) {
         return "auto " + Name + " = std::make_shared<" + Type + ">(" + Var + ");";
       },
       [](S Name, S) { return "(*" + Name + ")"; }},
      {"hold-struct", "an operand kept in a field of a config struct", {},
       [](Edit &E, const Site &, S Type, S Name, S Var) {
         std::string Struct = E.fresh("ReshapeConfig");
         return "struct " + Struct + " { " + Type + " " + Var + "; } " + Name + "{" + Var + "};";
       },
       [](S Name, S Var) { return Name + "." + Var; }},
      {"hold-static", "an operand kept in a static member of a struct", {"optional"},
       [](Edit &E, const Site &Where, S Type, S Name, S Var) {
         E.before(Where.TopLevel, "struct " + Name + " {\n  static inline std::optional<" + Type + "> value;\n};\n");
         return Name + "::value = " + Var + ";";
       },
       [](S Name, S) { return Name + "::value.value()"; }},
      {"hold-getter", "an operand returned by a function", {},
       [](Edit &, const Site &, S, S Name, S Var) { return "auto " + Name + " = [&] { return " + Var + "; };"; },
       [](S Name, S) { return Name + "()"; }},
      {"alias-ref", "an operand read through an auto& alias", {},
       [](Edit &, const Site &, S, S Name, S Var) { return "auto &" + Name + " = " + Var + ";"; },
       [](S Name, S) { return Name; }},
      {"alias-const-ref", "an operand read through a const auto& alias", {},
       [](Edit &, const Site &, S, S Name, S Var) { return "const auto &" + Name + " = " + Var + ";"; },
       [](S Name, S) { return Name; },
       /*ReadOnly=*/true},
  };
  return All;
}

/// True when the variable is not read after the site, in its own function:
/// no later use, and no loop around the site runs it again.
bool deadAfter(const Program &P, const Site &S, const SiteVariable &Variable) {
  const auto *Var = dyn_cast<VarDecl>(Variable.Decl);
  if (!Var || Var->getType()->isReferenceType() || Var->getDeclContext() != S.Function || !S.Function->getBody())
    return false;
  const SourceManager &SM = P.sourceManager();
  for (const Stmt *Loop : S.Loops)
    if (SM.isBeforeInTranslationUnit(Var->getLocation(), Loop->getBeginLoc()))
      return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Decl;
    std::vector<SourceLocation> Uses;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == Decl)
        Uses.push_back(Ref->getBeginLoc());
      return true;
    }
  } F;
  F.Decl = Var;
  F.TraverseStmt(S.Function->getBody());
  for (SourceLocation Use : F.Uses) {
    SourceLocation At = SM.getExpansionLoc(Use);
    if (SM.isBeforeInTranslationUnit(At, S.Range.getBegin()))
      continue;
    if (SM.isBeforeInTranslationUnit(At, S.Range.getEnd()))
      continue;
    return false;
  }
  return true;
}

bool moveThrough(Edit &E, const std::vector<Site> &Sites) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    std::string Declarations;
    std::string Indent = P.indentation(S.Range.getBegin());
    for (const SiteVariable &Variable : S.Variables) {
      if (!Variable.Tensor || Variable.Pinned || !deadAfter(P, S, Variable))
        continue;
      std::string Name = E.fresh("reshape_moved");
      Declarations += "auto " + Name + " = std::move(" + Variable.Name + ");\n" + Indent;
      E.replaceUses(Variable, Name);
    }
    if (Declarations.empty())
      continue;
    E.include("utility");
    E.insertBefore(S.Range.getBegin(), Declarations);
    Applied = true;
  }
  return Applied;
}

/// A tensor and a counter that nothing else reads, before each site.
bool addUnrelated(Edit &E, const std::vector<Site> &Sites) {
  const Program &P = E.program();
  std::string Namespace = tensorNamespace(P);
  for (const Site &S : Sites) {
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Tensor = E.fresh("reshape_unrelated"), Count = E.fresh("reshape_count");
    E.insertBefore(S.Range.getBegin(), "auto " + Tensor + " = " + Namespace + "::ones({2, 2});\n" + Indent + Tensor +
                                           " = " + Tensor + " * 2;\n" + Indent + "int " + Count + " = 0;\n" + Indent +
                                           "++" + Count + ";\n" + Indent);
  }
  return !Sites.empty();
}

} // namespace

void addHoldTransforms(std::vector<Transform> &Into) {
  for (const Holder &H : holders())
    Into.push_back({H.Name, H.Summary, [&H](Edit &E, const std::vector<Site> &Sites) { return hold(E, Sites, H); }});
  Into.push_back({"move-through", "an operand not read afterwards passed on through std::move", moveThrough});
  Into.push_back({"add-unrelated", "an unrelated host tensor and counter before each site", addUnrelated});
}

} // namespace placelint::reshape
