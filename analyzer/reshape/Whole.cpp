// Whole-program transforms: every local variable renamed, and the program's
// own free functions declared static, moved below their callers behind a
// forward declaration, or put in a namespace and called qualified.
#include "Transforms.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

namespace placelint::reshape {

using namespace clang;

namespace {

/// Every reference to a local variable, parameter or binding of a function
/// defined in the main file, with the declarations it cannot rename (a use
/// inside a macro's body).
class LocalNames : public RecursiveASTVisitor<LocalNames> {
public:
  explicit LocalNames(const Program &P) : P(P) {}
  std::map<const ValueDecl *, std::set<SourceLocation>> Places;
  std::set<const ValueDecl *> Fixed;

  bool VisitVarDecl(VarDecl *Var) {
    if (const auto *Parameter = dyn_cast<ParmVarDecl>(Var)) {
      const auto *Function = dyn_cast_or_null<FunctionDecl>(Parameter->getDeclContext());
      if (!Function || !Function->doesThisDeclarationHaveABody())
        return true;
    } else if (!Var->isLocalVarDecl()) {
      return true;
    }
    note(Var, Var->getLocation(), /*Declaration=*/true);
    return true;
  }
  bool VisitBindingDecl(BindingDecl *Binding) {
    const auto *Decomposed = dyn_cast_or_null<VarDecl>(Binding->getDecomposedDecl());
    if (Decomposed && Decomposed->isLocalVarDecl())
      note(Binding, Binding->getLocation(), true);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    note(Ref->getDecl(), Ref->getLocation(), false);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->explicit_captures())
      if (Capture.capturesVariable() && !Lambda->isInitCapture(&Capture))
        note(Capture.getCapturedVar(), Capture.getLocation(), false);
    return true;
  }

private:
  void note(const ValueDecl *Decl, SourceLocation At, bool Declaration) {
    if (!Decl->getIdentifier())
      return;
    if (!Declaration && !Places.count(Decl))
      return;
    const SourceManager &SM = P.sourceManager();
    if (At.isMacroID()) {
      if (!SM.isMacroArgExpansion(At)) {
        Fixed.insert(Decl);
        return;
      }
      At = SM.getSpellingLoc(At);
    }
    if (!SM.isInMainFile(At)) {
      if (Declaration)
        return;
      Fixed.insert(Decl);
      return;
    }
    Places[Decl].insert(At);
  }
  const Program &P;
};

bool renameLocals(Edit &E, const std::vector<Site> &) {
  const Program &P = E.program();
  LocalNames Names(P);
  Names.TraverseDecl(P.translationUnit());
  bool Applied = false;
  for (const auto &[Decl, Places] : Names.Places) {
    std::string Name = Decl->getNameAsString();
    std::string Renamed = Name + "_renamed";
    if (Names.Fixed.count(Decl) || P.code().find(Renamed) != std::string::npos)
      continue;
    for (SourceLocation At : Places)
      E.rewriter().ReplaceText(At, Name.size(), Renamed);
    Applied = true;
  }
  return Applied;
}

/// The program's own free functions that a transform may move or re-declare.
std::vector<const FunctionDecl *> ownFunctions(const Program &P, bool AtFileScopeOnly) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const FunctionDecl *> Found;
    bool VisitFunctionDecl(FunctionDecl *Function) {
      Found.push_back(Function);
      return true;
    }
    bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
    bool TraverseFunctionTemplateDecl(FunctionTemplateDecl *) { return true; }
    bool TraverseClassTemplateDecl(ClassTemplateDecl *) { return true; }
  } F;
  F.TraverseDecl(P.translationUnit());
  std::vector<const FunctionDecl *> Own;
  for (const FunctionDecl *Function : F.Found) {
    const DeclContext *Context = Function->getDeclContext();
    if (!Function->doesThisDeclarationHaveABody() || Function->isMain() || isa<CXXMethodDecl>(Function) ||
        Function->getPreviousDecl() || Function->isExternC() || Function->isConstexpr() ||
        Function->getBeginLoc().isMacroID() || !P.inMainFile(Function->getBeginLoc()) ||
        Function->getReturnType()->getContainedDeducedType() || !Context->isFileContext() ||
        (AtFileScopeOnly && !Context->isTranslationUnit()))
      continue;
    Own.push_back(Function);
  }
  return Own;
}

CharSourceRange wholeFunction(const Program &P, const FunctionDecl *Function) {
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Function->getSourceRange()), P.sourceManager(),
                                  P.langOptions());
}

bool declareStatic(Edit &E, const std::vector<Site> &) {
  bool Applied = false;
  for (const FunctionDecl *Function : ownFunctions(E.program(), false)) {
    if (Function->getStorageClass() != SC_None || Function->isInlineSpecified() ||
        Function->getTypeSpecStartLoc().isMacroID())
      continue;
    E.insertBefore(Function->getTypeSpecStartLoc(), "static ");
    Applied = true;
  }
  return Applied;
}

/// The definition's text without its default arguments, which stay on the
/// declaration; empty when a default argument belongs to an unnamed parameter.
std::string withoutDefaultArguments(const Program &P, const FunctionDecl *Function, CharSourceRange Whole) {
  const SourceManager &SM = P.sourceManager();
  std::string Text = P.text(Whole);
  unsigned Start = SM.getFileOffset(Whole.getBegin());
  std::vector<std::pair<unsigned, unsigned>> Cuts;
  for (const ParmVarDecl *Parameter : Function->parameters()) {
    if (!Parameter->hasDefaultArg())
      continue;
    if (!Parameter->getIdentifier() || Parameter->getLocation().isMacroID())
      return "";
    SourceLocation NameEnd = Lexer::getLocForEndOfToken(Parameter->getLocation(), 0, SM, P.langOptions());
    CharSourceRange Default = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Parameter->getDefaultArgRange()),
                                                       SM, P.langOptions());
    if (Default.isInvalid())
      return "";
    Cuts.emplace_back(SM.getFileOffset(NameEnd) - Start, SM.getFileOffset(Default.getEnd()) - Start);
  }
  for (auto Cut = Cuts.rbegin(); Cut != Cuts.rend(); ++Cut)
    Text.erase(Cut->first, Cut->second - Cut->first);
  return Text;
}

bool moveBelowCallers(Edit &E, const std::vector<Site> &) {
  const Program &P = E.program();
  const SourceManager &SM = P.sourceManager();
  bool Applied = false;
  for (const FunctionDecl *Function : ownFunctions(P, false)) {
    CharSourceRange Whole = wholeFunction(P, Function);
    if (Whole.isInvalid() || !Function->getBody())
      continue;
    std::string Definition = withoutDefaultArguments(P, Function, Whole);
    if (Definition.empty())
      continue;
    CharSourceRange Head = CharSourceRange::getCharRange(Whole.getBegin(), Function->getBody()->getBeginLoc());
    std::string Declaration = P.text(Head);
    Declaration.erase(Declaration.find_last_not_of(" \t\n") + 1);
    E.replace(Whole, Declaration + ";");
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Function->getDeclContext()))
      E.insertBefore(SM.getExpansionLoc(Namespace->getRBraceLoc()), Definition + "\n\n");
    else
      E.atEnd(Definition + "\n");
    Applied = true;
  }
  return Applied;
}

/// References to a function, where a qualifier can be written before them.
class FunctionReferences : public RecursiveASTVisitor<FunctionReferences> {
public:
  std::map<const FunctionDecl *, std::vector<SourceLocation>> Places;
  std::set<const FunctionDecl *> Fixed;
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl()))
      note(Function, Ref->getLocation());
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *Lookup) {
    for (const NamedDecl *Candidate : Lookup->decls())
      if (const auto *Function = dyn_cast<FunctionDecl>(Candidate->getUnderlyingDecl()))
        note(Function, Lookup->getNameLoc());
    return true;
  }

private:
  void note(const FunctionDecl *Function, SourceLocation At) {
    if (At.isMacroID())
      Fixed.insert(Function->getCanonicalDecl());
    else
      Places[Function->getCanonicalDecl()].push_back(At);
  }
};

bool putInNamespace(Edit &E, const std::vector<Site> &) {
  const Program &P = E.program();
  FunctionReferences References;
  References.TraverseDecl(P.translationUnit());
  std::map<std::string, unsigned> Overloads;
  std::vector<const FunctionDecl *> Own = ownFunctions(P, true);
  for (const FunctionDecl *Function : Own)
    ++Overloads[Function->getNameAsString()];
  bool Applied = false;
  for (const FunctionDecl *Function : Own) {
    CharSourceRange Whole = wholeFunction(P, Function);
    if (Whole.isInvalid() || Overloads[Function->getNameAsString()] > 1 ||
        References.Fixed.count(Function->getCanonicalDecl()))
      continue;
    E.insertBefore(Whole.getBegin(), "namespace reshape_detail {\n");
    E.insertAfter(Whole.getEnd(), "\n} // namespace reshape_detail");
    for (SourceLocation At : References.Places[Function->getCanonicalDecl()])
      E.insertBefore(At, "reshape_detail::");
    Applied = true;
  }
  return Applied;
}

} // namespace

void addWholeProgramTransforms(std::vector<Transform> &Into) {
  Into.push_back({"rename", "every local variable and parameter renamed", renameLocals});
  Into.push_back({"helpers-static", "the program's free functions declared static", declareStatic});
  Into.push_back({"helpers-below", "the program's free functions defined below their callers, declared above",
                  moveBelowCallers});
  Into.push_back({"helpers-namespace", "the program's free functions in a namespace, called qualified",
                  putInNamespace});
}

} // namespace placelint::reshape
