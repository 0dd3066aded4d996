// One bug, one report: rules.def's Subsumes column applied once over the
// findings of a function, whichever rules found them.
#include "placelint/analysis/AnalysisCache.h"

#include <placelint/rules.h>

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

namespace placelint::analysis {

namespace {

// Whether a finding of Winner makes Loser's on the same expression redundant.
bool subsumes(Rule Winner, Rule Loser) {
  using enum Rule;
  switch (Winner) {
    // Each rule's Losers list starts with the rule itself, so that an empty
    // Subsumes column `()` still makes an array.
#define PL_UNPARENTHESISED(...) __VA_ARGS__
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime)              \
  case Name: {                                                                                     \
    static constexpr Rule Losers[] = {Name, PL_UNPARENTHESISED Subsumes};                          \
    return llvm::is_contained(llvm::ArrayRef(Losers).drop_front(), Loser);                         \
  }
#include <placelint/rules.def>
#undef PL_RULE
#undef PL_UNPARENTHESISED
  }
  return false;
}

} // namespace

Rule RecordedFindings::ruleOf(const AnyFinding &Finding) {
  switch (Finding.index()) {
#define PL_FINDING(Method, Struct, RuleName, Subject)                                              \
  case Method##Index:                                                                              \
    return Rule::RuleName;
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
  }
  llvm_unreachable("a recorded finding of no kind");
}

const clang::Stmt *RecordedFindings::subjectOf(const AnyFinding &Finding) {
  switch (Finding.index()) {
#define PL_FINDING(Method, Struct, RuleName, Subject)                                              \
  case Method##Index:                                                                              \
    return std::get<Method##Index>(Finding).Subject;
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
  }
  llvm_unreachable("a recorded finding of no kind");
}

void RecordedFindings::applyPrecedence() {
  // What was found before any is dropped: a finding subsumed in turn still
  // subsumes (discarded-transfer over create-then-move over
  // pageable-non-blocking leaves one report).
  llvm::DenseSet<std::pair<Rule, const clang::Stmt *>> Found;
  for (const AnyFinding &Finding : Recorded)
    Found.insert({ruleOf(Finding), subjectOf(Finding)});
  llvm::erase_if(Recorded, [&](const AnyFinding &Finding) {
    Rule Loser = ruleOf(Finding);
    return llvm::any_of(kRules, [&](const RuleInfo &Winner) {
      return subsumes(Winner.rule, Loser) && Found.contains({Winner.rule, subjectOf(Finding)});
    });
  });
}

} // namespace placelint::analysis
