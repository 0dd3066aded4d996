// The rules over the analysis (private to analyzer/lib): each reads the
// converged facts of one function and reports what breaks it to the
// handler. The rule <Name> that rules.def marks Check lives in
// rules/<Name>.cpp as diagnose<Name>; the checks in analyzer/checks only
// word its findings.
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace placelint::analysis {

class FindingsHandler;
class FunctionFacts;

using Diagnoser = void (*)(const FunctionFacts &Facts, FindingsHandler &Handler);

#define PL_DIAGNOSER_Check(Name)                                                                   \
  void diagnose##Name(const FunctionFacts &Facts, FindingsHandler &Handler);
#define PL_DIAGNOSER_NotYet(Name)
#define PL_RULE(Name, Analyzer, Mirror, Site, Subsumes, Id, Title, Summary, Runtime)               \
  PL_DIAGNOSER_##Analyzer(Name)
#include <placelint/rules.def>
#undef PL_RULE
#undef PL_DIAGNOSER_NotYet
#undef PL_DIAGNOSER_Check

// Every rule the analyzer checks, in the catalogue's order.
llvm::ArrayRef<Diagnoser> allDiagnosers();

} // namespace placelint::analysis
