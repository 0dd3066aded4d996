// The flow-sensitive device analysis: for each function, which devices each
// tensor, Device value, TensorOptions and module may hold at each point,
// computed over Clang's CFG to a fixed point, with per-call summaries for the
// functions the translation unit defines. Findings go to a FindingsHandler.
#pragma once

#include "placelint/analysis/ApiModel.h"
#include "placelint/analysis/DeviceLattice.h"
#include "placelint/analysis/Findings.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

// What the analysis knows about one value (a tensor, a Device, tensor
// options or a module) at one point.
struct ValueFact {
  DeviceSet Devices;
  ZeroDim Dim = ZeroDim::Unknown;
  Origin From;
  // After a merge, where each member of Devices came from (empty when From
  // explains them all).
  llvm::SmallVector<std::pair<AbstractDevice, Origin>, 2> MemberOrigins;
  // TensorOptions that name no device (the default device, cpu, applies).
  bool OptionsWithoutDevice = false;
  // When the value is the unchanged result of a transfer: that call, and the
  // devices it moved the tensor from (for round trips).
  const clang::Expr *TransferCall = nullptr;
  DeviceSet TransferSource;

  static ValueFact on(DeviceSet Devices, ZeroDim Dim = ZeroDim::Unknown) {
    ValueFact Fact;
    Fact.Devices = Devices;
    Fact.Dim = Dim;
    return Fact;
  }
  static ValueFact unknown() { return on(DeviceSet::unknown()); }
  ValueFact join(const ValueFact &Other) const;
  // Where the value got Device, one of its members.
  Origin originOf(const AbstractDevice &Device) const;
  // Sets one origin for all members.
  void setOrigin(Origin Where) {
    From = Where;
    MemberOrigins.clear();
  }
  friend bool operator==(const ValueFact &, const ValueFact &) = default;
};

// `dev` for a symbolic device's variable.
std::string symbolName(const clang::ValueDecl *Var);

// Receives the fact of every tensor-, device-, options- or module-valued
// expression of the analysed function once the fixed point is reached.
using FactObserver = llvm::function_ref<void(const clang::Expr &, const ValueFact &)>;

// The analysis of one translation unit: holds the API model and the
// function summaries, which all analysed functions share.
class DeviceAnalysis {
public:
  DeviceAnalysis(clang::ASTContext &Context, ApiProfile Profile);
  ~DeviceAnalysis();

  // Analyses Function's body (and the lambdas in it) and reports findings.
  // Returns false when the function was skipped: no body, a template, no
  // tensor in it, or the unit has errors.
  bool analyze(const clang::FunctionDecl &Function, FindingsHandler &Handler,
               FactObserver Observer = nullptr);

  // The fact of Function's result when called with Arguments (computed on
  // first use; unknown for recursion or too deep a call chain).
  ValueFact summarize(const clang::FunctionDecl &Function,
                      llvm::ArrayRef<ValueFact> Arguments);

  const ApiModel &model() const { return Model; }
  clang::ASTContext &context() const { return Context; }

private:
  static constexpr unsigned kMaxSummaryDepth = 4;

  clang::ASTContext &Context;
  ApiModel Model;
  std::map<std::string, ValueFact> Summaries;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
};

} // namespace placelint::analysis
