#include "placelint/analysis/AnalysisCache.h"

namespace placelint::analysis {

void RecordedFindings::replay(FindingsHandler &Handler) const {
  for (const AnyFinding &Finding : Recorded) {
    switch (Finding.index()) {
#define PL_FINDING(Method, Struct, Rule, Subject)                                                                 \
  case Method##Index:                                                                              \
    Handler.Method(std::get<Method##Index>(Finding));                                              \
    break;
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
    default:
      break;
    }
  }
}

AnalysisCache &AnalysisCache::forCurrentThread() {
  thread_local AnalysisCache Cache;
  return Cache;
}

void AnalysisCache::startTranslationUnit() {
  Results.clear();
  Analyses.clear();
  Context = nullptr;
}

const RecordedFindings &AnalysisCache::findingsFor(const clang::FunctionDecl &Function,
                                                   clang::ASTContext &NewContext,
                                                   const AnalysisOptions &Options) {
  if (Context != &NewContext) {
    startTranslationUnit();
    Context = &NewContext;
  }
  DeviceAnalysis *Analysis = nullptr;
  for (auto &[Key, Existing] : Analyses)
    if (Key == Options)
      Analysis = Existing.get();
  if (!Analysis) {
    Analyses.emplace_back(Options, std::make_unique<DeviceAnalysis>(NewContext, Options));
    Analysis = Analyses.back().second.get();
  }
  std::unique_ptr<RecordedFindings> &Slot = Results[{&Function, Analysis}];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<RecordedFindings>();
  Analysis->analyze(Function, *Slot);
  return *Slot;
}

} // namespace placelint::analysis
