// The rule catalogue as C++: an enum and a constexpr table built from
// rules.def, shared by the analyzer and the runtime. Ids are complete here
// (PL_RULE_PREFIX included).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace placelint {

enum class Rule {
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime) Name,
#include <placelint/rules.def>
#undef PL_RULE
};

struct RuleInfo {
  Rule rule;
  std::string_view id;
  std::string_view title;
  std::string_view summary;
};

inline constexpr std::array kRules = {
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime)               \
  RuleInfo{Rule::Name, PL_RULE_PREFIX Id, Title, Summary},
#include <placelint/rules.def>
#undef PL_RULE
};

constexpr const RuleInfo &ruleInfo(Rule R) {
  return kRules[static_cast<std::size_t>(R)];
}

constexpr std::string_view ruleId(Rule R) { return ruleInfo(R).id; }

} // namespace placelint
