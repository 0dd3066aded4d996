#include "CheckSupport.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy {

using placelint::analysis::ApiProfile;
using placelint::analysis::apiProfileName;

llvm::ArrayRef<std::pair<ApiProfile, StringRef>>
OptionEnumMapping<ApiProfile>::getEnumMapping() {
  static const std::pair<ApiProfile, StringRef> Mapping[] = {
      {ApiProfile::Auto, apiProfileName(ApiProfile::Auto)},
      {ApiProfile::Pl, apiProfileName(ApiProfile::Pl)},
      {ApiProfile::Libtorch, apiProfileName(ApiProfile::Libtorch)}};
  return Mapping;
}

namespace placement {

using namespace ast_matchers;
using namespace placelint::analysis;

static constexpr ApiProfile DefaultApiProfile = ApiProfile::Auto;

// `a;b;c` as clang-tidy writes lists in options.
static std::vector<std::string> listOption(StringRef Value) {
  std::vector<StringRef> Items = utils::options::parseStringList(Value);
  return {Items.begin(), Items.end()};
}

PlacementCheck::PlacementCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AnalysisOptions{Options.getLocalOrGlobal("ApiProfile", DefaultApiProfile),
                      listOption(Options.getLocalOrGlobal("AvailabilityChecks", "")),
                      listOption(Options.getLocalOrGlobal("GpuTestSuffixes", ""))},
      TidyContext(*Context) {}

void PlacementCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ApiProfile", AnalysisOptions.Profile);
  std::vector<StringRef> Checks(AnalysisOptions.AvailabilityChecks.begin(),
                                AnalysisOptions.AvailabilityChecks.end());
  Options.store(Opts, "AvailabilityChecks", utils::options::serializeStringList(Checks));
  std::vector<StringRef> Suffixes(AnalysisOptions.GpuTestSuffixes.begin(),
                                  AnalysisOptions.GpuTestSuffixes.end());
  Options.store(Opts, "GpuTestSuffixes", utils::options::serializeStringList(Suffixes));
}

void PlacementCheck::registerMatchers(MatchFinder *Finder) {
  // One match per translation unit: the checks walk the declarations of
  // user files themselves, so that no matcher runs on the (often huge) rest
  // of the AST, such as all of libtorch's headers.
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

// The cache is keyed on the unit's AST, whose addresses a long-running
// server (placelint-clangd) reuses for the next build of the file: nothing
// from one unit may reach the next.
void PlacementCheck::onStartOfTranslationUnit() {
  AnalysisCache::forCurrentThread().startTranslationUnit();
}

// The unit's analyses point into its AST, which goes away after this: drop
// them now rather than keep them, in a server, until the next unit.
void PlacementCheck::onEndOfTranslationUnit() {
  AnalysisCache::forCurrentThread().startTranslationUnit();
}

bool PlacementCheck::isUserFile(SourceLocation Loc) {
  const SourceManager &SM = CurrentContext->getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid())
    return false;
  auto [It, Inserted] = UserFiles.try_emplace(SM.getFileID(Loc), false);
  if (!Inserted)
    return It->second;
  if (SM.isInSystemHeader(Loc))
    return It->second = false;
  if (SM.isInMainFile(Loc))
    return It->second = true;
  if (!HeaderFilter) {
    const std::optional<std::string> &Regex = TidyContext.getOptions().HeaderFilterRegex;
    HeaderFilter.emplace(Regex ? *Regex : std::string("^$"));
  }
  StringRef File = SM.getFilename(Loc);
  return It->second = !File.empty() && HeaderFilter->match(File);
}

void PlacementCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Unit = Result.Nodes.getNodeAs<TranslationUnitDecl>("unit");
  if (!Unit)
    return;
  CurrentContext = Result.Context;
  UserFiles.clear();
  Visited.clear();
  // clangd (placelint-clangd) limits the traversal to the main file's
  // top-level declarations; the rest of the unit is in its preamble, and
  // listing the unit's declarations would read each of them back from it.
  std::vector<Decl *> Scope = Result.Context->getTraversalScope();
  if (Scope.size() == 1 && Scope.front() == Unit) {
    visitUserDecls(*Unit);
    return;
  }
  for (const Decl *D : Scope)
    visitUserDecl(*D);
}

void PlacementCheck::visitUserDecls(const DeclContext &Context) {
  for (const Decl *D : Context.decls())
    visitUserDecl(*D);
}

void PlacementCheck::visitUserDecl(const Decl &D) {
  if (D.isImplicit() || !isUserFile(D.getLocation()))
    return;
  if (const auto *Function = dyn_cast<FunctionDecl>(&D)) {
    reportOn(*Function);
  } else if (const auto *Template = dyn_cast<FunctionTemplateDecl>(&D)) {
    // Each instantiation is analysed (clang-tidy merges identical
    // diagnostics); the primary template is skipped by the analysis.
    for (const FunctionDecl *Instance : Template->specializations())
      reportOn(*Instance);
  } else if (const auto *ClassTemplate = dyn_cast<ClassTemplateDecl>(&D)) {
    for (const ClassTemplateSpecializationDecl *Instance : ClassTemplate->specializations())
      visitUserDecls(*Instance);
  } else if (const auto *Record = dyn_cast<CXXRecordDecl>(&D)) {
    if (Record->isThisDeclarationADefinition())
      visitUserDecls(*Record);
  } else if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
    visitUserDecls(*cast<DeclContext>(&D));
  }
}

void PlacementCheck::reportOn(const FunctionDecl &Function) {
  if (!Function.doesThisDeclarationHaveABody() || !Visited.insert(&Function).second)
    return;
  // Lambdas are analysed with the function that contains them.
  report(AnalysisCache::forCurrentThread().findingsFor(Function, *CurrentContext, AnalysisOptions));
}

std::optional<StringRef> PlacementCheck::indentationBefore(SourceLocation At) const {
  const SourceManager &SM = sourceManager();
  unsigned Column = SM.getSpellingColumnNumber(At);
  SourceLocation LineStart = At.getLocWithOffset(-static_cast<int>(Column - 1));
  StringRef Indent =
      Lexer::getSourceText(CharSourceRange::getCharRange(LineStart, At), SM, getLangOpts());
  if (Column == 0 || Indent.find_first_not_of(" \t") != StringRef::npos)
    return std::nullopt;
  return Indent;
}

std::string PlacementCheck::text(const Expr *E) const {
  if (!E || !CurrentContext)
    return "";
  // `mask->to(d)` calls to() on what `mask->` gives: named by `mask`.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit());
      Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
    E = Arrow->getArg(0);
  const SourceManager &SM = CurrentContext->getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      CurrentContext->getLangOpts());
  StringRef Text = Lexer::getSourceText(Range, SM, CurrentContext->getLangOpts());
  return Text.str();
}

std::string PlacementCheck::device(const AbstractDevice &Device) {
  return describe(Device, symbolName);
}

std::string PlacementCheck::devices(const DeviceSet &Devices) {
  return Devices.describe(symbolName);
}

void PlacementCheck::noteOrigin(const OperandFact &Operand, const AbstractDevice &Device,
                                bool OfListElement) {
  if (Operand.From.Loc.isInvalid())
    return;
  const char *Format = nullptr;
  switch (Operand.From.Kind) {
  case OriginKind::Created:
    Format = OfListElement ? "an element of '%0' was created on %1 here"
                           : "'%0' was created on %1 here";
    break;
  case OriginKind::Moved:
    Format = OfListElement ? "an element of '%0' was moved to %1 here"
                           : "'%0' was moved to %1 here";
    break;
  case OriginKind::Assigned:
    Format = OfListElement ? "an element of '%0' was assigned a tensor on %1 here"
                           : "'%0' was assigned a tensor on %1 here";
    break;
  case OriginKind::None:
    return;
  }
  diag(Operand.From.Loc, Format, DiagnosticIDs::Note) << text(Operand.Operand)
                                                      << device(Device);
}

} // namespace placement
} // namespace clang::tidy
