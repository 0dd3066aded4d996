#include "rules/Rules.h"

namespace placelint::analysis {

llvm::ArrayRef<Diagnoser> allDiagnosers() {
#define PL_DIAGNOSER_Check(Name) diagnose##Name,
#define PL_DIAGNOSER_NotYet(Name)
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime)               \
  PL_DIAGNOSER_##Analyzer(Name)
  static constexpr Diagnoser All[] = {
#include <placelint/rules.def>
  };
#undef PL_RULE
#undef PL_DIAGNOSER_NotYet
#undef PL_DIAGNOSER_Check
  return All;
}

} // namespace placelint::analysis
