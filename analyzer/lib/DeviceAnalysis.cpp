// DeviceAnalysis: the flow analysis of a function to its fixed point, then
// every rule over what it found, then the precedence between rules.
#include "placelint/analysis/DeviceAnalysis.h"

#include "BodyFacts.h"
#include "CallIndex.h"
#include "placelint/analysis/AnalysisCache.h"
#include "flow/DeviceFlow.h"
#include "flow/FunctionSummaries.h"
#include "rules/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <utility>

namespace placelint::analysis {

using namespace clang;

FindingsHandler::~FindingsHandler() = default;

DeviceAnalysis::DeviceAnalysis(ASTContext &Context, const AnalysisOptions &Options)
    : Context(Context), Model(Context, Options), Calls(std::make_unique<CallIndex>(Context, Model)),
      Summaries(std::make_unique<FunctionSummaries>(Context, Model, *Calls)) {}

DeviceAnalysis::~DeviceAnalysis() = default;

bool DeviceAnalysis::analyze(const FunctionDecl &Function, FindingsHandler &Handler,
                             FactObserver Observer) {
  return analyze(Function, /*Arguments=*/{}, Summaries->classEntryOf(Function), Handler,
                 Observer);
}

bool DeviceAnalysis::analyze(const FunctionDecl &Function,
                             llvm::ArrayRef<AbstractValue> Arguments,
                             const EntryFacts *Entry, FindingsHandler &Handler,
                             FactObserver Observer) {
  if (!isAnalyzable(Function, Context))
    return false;
  BodyFacts Body(*Function.getBody(), Model);
  if (!Body.mentionsApi())
    return false;
  FunctionFacts Facts(Function, Body, *Calls);
  CallInputs Inputs{Arguments};
  if (!DeviceFlow(Context, Model, *Summaries, Inputs, Facts, Entry).run())
    return false;
  Facts.orderByExecution();
  RecordedFindings Found;
  for (Diagnoser Diagnose : allDiagnosers())
    Diagnose(Facts, Found);
  Found.applyPrecedence();
  Found.replay(Handler);
  if (Observer)
    for (const auto &[E, Fact] : Facts.expressions())
      if (Model.classify(E->getType()) != ValueKind::Other)
        Observer(*E, Fact);
  for (const LambdaExpr *Lambda : Body.lambdas())
    analyze(*Lambda->getCallOperator(), Facts.lambdaArguments(*Lambda->getCallOperator()),
            std::as_const(Facts).capturesOf(*Lambda), Handler, Observer);
  return true;
}

} // namespace placelint::analysis
