// The summaries of the functions a translation unit defines: what a call
// returns and leaves in its object and reference arguments, from what it is
// given, computed by analysing the callee's body on first use and cached by
// (callee, inputs).
#pragma once

#include "flow/CallerGuards.h"
#include "flow/FunctionFacts.h"
#include "flow/SummaryProvider.h"
#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CXXMethodDecl;
class CXXRecordDecl;
} // namespace clang

namespace placelint::analysis {

class FunctionSummaries : public SummaryProvider {
public:
  // Calls: the unit's call index (the callers' guards and the kept
  // analyses read it).
  FunctionSummaries(clang::ASTContext &Context, const ApiModel &Model, CallIndex &Calls);
  ~FunctionSummaries() override;

  // Unknown for recursion, a call chain deeper than kMaxDepth, or a body the
  // analysis cannot take.
  CallSummary summarize(const clang::FunctionDecl &Callee, const CallInputs &Inputs) override;
  const EntryFacts *capturesOf(const clang::CXXRecordDecl &Closure) override;
  void noteCaptures(const clang::CXXRecordDecl &Closure, const EntryFacts &Captured) override;

  bool registersState(const clang::CXXRecordDecl &Module) override;

  unsigned devicesEstablishedBy(const clang::Expr &Call) override;

  CallersGuard devicesEnsuredByCallers(const clang::FunctionDecl &Function,
                                       llvm::ArrayRef<const clang::ValueDecl *> Flags) override {
    return Callers.devicesEnsuredByCallers(Function, Flags);
  }

  // For a method of a module class or of a struct with tracked fields
  // (other than its constructors): what its fields start from, and for a
  // module's `forward`, its inputs; null for anything else.
  const EntryFacts *classEntryOf(const clang::FunctionDecl &Function);

private:
  static constexpr unsigned kMaxDepth = 4;

  // The operations of a function that mismatch, as it was analysed.
  static std::vector<CalleeFailure> mismatchesOf(const FunctionFacts &Facts);
  // Its first reads of tensors its callers gave it still waiting for a
  // download (CallSummary::PendingReads).
  static std::vector<UnsynchronizedReadFinding> pendingReadsOf(const FunctionFacts &Facts);
  // The transfers Callee, and what it calls, make once per call: outside
  // their own loops and periodic branches, with what a call gives them
  // (CallSummary::Transfers; flow/CalleeTransfers.cpp).
  static std::vector<CalleeTransfer> transfersOfInputs(const clang::FunctionDecl &Callee,
                                                       const FunctionFacts &Facts);

  // The fields of a module class as its constructors and other methods
  // leave them: registered parameters, buffers and submodules move with the
  // module (Module::to moves them), anything else stays where it was made.
  std::unique_ptr<EntryFacts> computeFields(const clang::CXXRecordDecl &Class);

  clang::ASTContext &Context;
  const ApiModel &Model;
  CallIndex &Calls;
  CallerGuards Callers;
  std::map<std::string, CallSummary> Cache;
  std::map<const clang::CXXRecordDecl *, EntryFacts> Captures;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
  std::map<const clang::CXXRecordDecl *, std::unique_ptr<EntryFacts>> Classes;
  // While a class's fields are computed, summaries see none: not cached.
  unsigned ComputingFields = 0;
  std::map<const clang::CXXRecordDecl *, bool> Registers;
  // The same fields with forward's inputs on the module's device.
  std::map<const clang::CXXRecordDecl *, std::unique_ptr<EntryFacts>> ForwardContexts;
  // The analyses that made values the summaries and fields hand out.
  struct KeptAnalysis;
  std::vector<std::unique_ptr<KeptAnalysis>> KeptAnalyses;
  llvm::SmallPtrSet<const FunctionFacts *, 16> KeptFacts;
  void keep(std::unique_ptr<KeptAnalysis> Analysis);
};

// Whether the analysis can take Function's body at all.
bool isAnalyzable(const clang::FunctionDecl &Function, const clang::ASTContext &Context);
// Whether a call of a function so defined gets a summary: user code, not a
// template's pattern nor a system header's.
bool hasUserBody(const clang::FunctionDecl *Definition, const clang::ASTContext &Context);

} // namespace placelint::analysis
