#include "CheckSupport.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy {

using placelint::analysis::ApiProfile;

llvm::ArrayRef<std::pair<ApiProfile, StringRef>>
OptionEnumMapping<ApiProfile>::getEnumMapping() {
  static constexpr std::pair<ApiProfile, StringRef> Mapping[] = {
      {ApiProfile::Auto, "auto"},
      {ApiProfile::Pl, "pl"},
      {ApiProfile::Libtorch, "libtorch"}};
  return Mapping;
}

namespace placement {

using namespace ast_matchers;
using namespace placelint::analysis;

static constexpr ApiProfile DefaultApiProfile = ApiProfile::Auto;

PlacementCheck::PlacementCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Profile(Options.getLocalOrGlobal("ApiProfile", DefaultApiProfile)),
      TidyContext(*Context) {}

void PlacementCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ApiProfile", Profile);
}

void PlacementCheck::registerMatchers(MatchFinder *Finder) {
  // Lambdas are analysed with the function that contains them. Template
  // instantiations are analysed one by one (clang-tidy merges identical
  // diagnostics); primary templates are skipped by the analysis.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   unless(cxxMethodDecl(ofClass(cxxRecordDecl(isLambda())))))
          .bind("function"),
      this);
}

void PlacementCheck::onStartOfTranslationUnit() {
  AnalysisCache::forCurrentThread().startTranslationUnit();
}

bool PlacementCheck::isUserCode(const FunctionDecl &Function, const SourceManager &SM) {
  SourceLocation Loc = SM.getExpansionLoc(Function.getLocation());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return false;
  if (SM.isInMainFile(Loc))
    return true;
  if (!HeaderFilter) {
    const std::optional<std::string> &Regex = TidyContext.getOptions().HeaderFilterRegex;
    HeaderFilter.emplace(Regex ? *Regex : std::string("^$"));
  }
  StringRef File = SM.getFilename(Loc);
  return !File.empty() && HeaderFilter->match(File);
}

void PlacementCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !isUserCode(*Function, *Result.SourceManager))
    return;
  CurrentContext = Result.Context;
  report(AnalysisCache::forCurrentThread().findingsFor(*Function, *Result.Context, Profile));
}

std::string PlacementCheck::text(const Expr *E) const {
  if (!E || !CurrentContext)
    return "";
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

void PlacementCheck::noteOrigin(const OperandFact &Operand, const AbstractDevice &Device) {
  if (Operand.From.Loc.isInvalid())
    return;
  const char *Format = nullptr;
  switch (Operand.From.Kind) {
  case OriginKind::Created:
    Format = "'%0' was created on %1 here";
    break;
  case OriginKind::Moved:
    Format = "'%0' was moved to %1 here";
    break;
  case OriginKind::Assigned:
    Format = "'%0' was assigned a tensor on %1 here";
    break;
  case OriginKind::None:
    return;
  }
  diag(Operand.From.Loc, Format, DiagnosticIDs::Note) << text(Operand.Operand)
                                                      << device(Device);
}

} // namespace placement
} // namespace clang::tidy
