// The entry point of the device analysis: for each function, the devices
// each tensor, Device value, TensorOptions and module may hold at each
// point (flow/, over Clang's CFG to a fixed point, with summaries of the
// functions the unit defines), then every rule (rules/) run over the
// converged facts, reporting to a FindingsHandler.
#pragma once

#include "placelint/analysis/ApiModel.h"
#include "placelint/analysis/Findings.h"
#include "placelint/analysis/ValueFact.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

class CallIndex;
class FunctionSummaries;
struct AbstractValue;
struct EntryFacts;

// Receives the fact of every tensor-, device-, options- or module-valued
// expression of the analysed function once the fixed point is reached.
using FactObserver = llvm::function_ref<void(const clang::Expr &, const ValueFact &)>;

// The analysis of one translation unit: holds the API model, the index of
// the unit's calls and the function summaries, which all analysed functions
// share.
class DeviceAnalysis {
public:
  DeviceAnalysis(clang::ASTContext &Context, const AnalysisOptions &Options);
  ~DeviceAnalysis();

  // Analyses Function's body (and the lambdas in it) and reports every
  // rule's findings. Returns false when the function was skipped: no body,
  // a template, no tensor in it, or the unit has errors.
  bool analyze(const clang::FunctionDecl &Function, FindingsHandler &Handler,
               FactObserver Observer = nullptr);

  const ApiModel &model() const { return Model; }

private:
  // Arguments: the facts of the parameters (for a lambda, what the function
  // around it calls it with); Entry: what else it starts from.
  bool analyze(const clang::FunctionDecl &Function, llvm::ArrayRef<AbstractValue> Arguments,
               const EntryFacts *Entry, FindingsHandler &Handler, FactObserver Observer);

  clang::ASTContext &Context;
  ApiModel Model;
  // Built on the first question; the summaries and the rules read it.
  std::unique_ptr<CallIndex> Calls;
  std::unique_ptr<FunctionSummaries> Summaries;
};

} // namespace placelint::analysis
