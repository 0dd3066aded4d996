// The rules over the analysis (private to analyzer/lib): each reads the
// converged facts of one function and reports what breaks it to the
// handler, one file per rule. The checks in analyzer/checks only word them.
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace placelint::analysis {

class FindingsHandler;
class FunctionFacts;

using Diagnoser = void (*)(const FunctionFacts &Facts, FindingsHandler &Handler);

void diagnoseMixedDevice(const FunctionFacts &Facts, FindingsHandler &Handler);
void diagnoseDiscardedTransfer(const FunctionFacts &Facts, FindingsHandler &Handler);
void diagnoseTransferInLoop(const FunctionFacts &Facts, FindingsHandler &Handler);

// Every rule the analyzer checks, in the catalogue's order.
llvm::ArrayRef<Diagnoser> allDiagnosers();

} // namespace placelint::analysis
