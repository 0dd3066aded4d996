// The rules over the analysis (private to analyzer/lib): each reads the
// converged facts of one function and reports what breaks it to the
// handler. The rule <Name> that rules.def marks Check lives in
// rules/<Name>.cpp as diagnose<Name>; the checks in analyzer/checks only
// word its findings.
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class Expr;
} // namespace clang

namespace placelint::analysis {

class FindingsHandler;
class FunctionFacts;
struct Transfer;

using Diagnoser = void (*)(const FunctionFacts &Facts, FindingsHandler &Handler);

#define PL_DIAGNOSER_Check(Name)                                                                   \
  void diagnose##Name(const FunctionFacts &Facts, FindingsHandler &Handler);
#define PL_DIAGNOSER_NotYet(Name)
#define PL_RULE(Name, Analyzer, Mirror, Site, Id, Title, Summary, Runtime)                        \
  PL_DIAGNOSER_##Analyzer(Name)
#include <placelint/rules.def>
#undef PL_RULE
#undef PL_DIAGNOSER_NotYet
#undef PL_DIAGNOSER_Check

// Whether a move's copy is used as a parameter that is not a leaf
// (NonLeafParameter.cpp); placement-create-then-move leaves such moves to it.
bool isNonLeafParameterMove(const FunctionFacts &Facts, const clang::Expr &Move);

// Whether T moves a tensor a factory made on the host only to be moved
// (CreateThenMove.cpp): placement-pageable-non-blocking leaves such moves to
// it, whose fix makes the tensor where it goes.
bool isCreateThenMove(const FunctionFacts &Facts, const Transfer &T);

// Every rule the analyzer checks, in the catalogue's order.
llvm::ArrayRef<Diagnoser> allDiagnosers();

} // namespace placelint::analysis
