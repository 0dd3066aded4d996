// Runs the device analysis once per function and keeps the findings, so that
// every check asking about the same function shares one run.
#pragma once

#include "placelint/analysis/DeviceAnalysis.h"
#include "placelint/analysis/Findings.h"

#include <placelint/rules.h>

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <variant>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace placelint::analysis {

// The findings of one function, recorded in the order they were made, to
// be replayed to each check.
class RecordedFindings : public FindingsHandler {
public:
#define PL_FINDING(Method, Struct, Rule, Subject)                                                                 \
  void Method(const Struct &F) override { Recorded.emplace_back(std::in_place_index<Method##Index>, F); }
#include "placelint/analysis/Findings.def"
#undef PL_FINDING

  void replay(FindingsHandler &Handler) const;
  // Drops each finding that a finding of a rule subsuming its rule
  // (rules.def's Subsumes column) makes redundant on the same expression.
  void applyPrecedence();

private:
  // Variant indices, one per kind (0 is no finding), so that kinds sharing
  // a struct stay apart.
  enum : std::size_t {
    NoFindingIndex,
#define PL_FINDING(Method, Struct, Rule, Subject) Method##Index,
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
  };
  using AnyFinding = std::variant<std::monostate
#define PL_FINDING(Method, Struct, Rule, Subject) , Struct
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
                                  >;
  static Rule ruleOf(const AnyFinding &Finding);
  static const clang::Stmt *subjectOf(const AnyFinding &Finding);

  std::vector<AnyFinding> Recorded;
};

// One per thread; holds the analyses of the current translation unit.
class AnalysisCache {
public:
  static AnalysisCache &forCurrentThread();

  // Drops everything about the previous translation unit.
  void startTranslationUnit();
  // The findings for Function, analysing it on first request. Checks
  // configured alike share one analysis.
  const RecordedFindings &findingsFor(const clang::FunctionDecl &Function,
                                      clang::ASTContext &Context,
                                      const AnalysisOptions &Options);

private:
  const clang::ASTContext *Context = nullptr;
  std::vector<std::pair<AnalysisOptions, std::unique_ptr<DeviceAnalysis>>> Analyses;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, const DeviceAnalysis *>,
                 std::unique_ptr<RecordedFindings>>
      Results;
};

} // namespace placelint::analysis
