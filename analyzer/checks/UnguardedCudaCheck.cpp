#include "UnguardedCudaCheck.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

UnguardedCudaCheck::UnguardedCudaCheck(StringRef Name, ClangTidyContext *Context)
    : PlacementCheck(Name, Context) {
  for (const std::string &Entry : analysisOptions().GpuTestSuffixes)
    if (!ApiModel::parseGpuTestSuffix(Entry))
      configurationDiag("invalid GpuTestSuffixes entry '%0': expected a test name's ending, "
                        "optionally with '=N' GPUs (N >= 1), as in '_CUDA=1;_MultiCUDA=2'; "
                        "the entry is ignored")
          << Entry;
}

void UnguardedCudaCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(UnguardedCudaCheck &Check) : Check(Check) {}

    void onUnguardedCuda(const UnguardedCudaFinding &F) override {
      if (F.DevicesEnsured == 0)
        Check.diag(F.Request->getExprLoc(),
                   "CUDA is requested with no cuda::is_available() check on this path; the "
                   "program fails on a machine without a GPU");
      else
        Check.diag(F.Request->getExprLoc(),
                   "cuda:%0 is requested where the checks on this path ensure only %1 CUDA "
                   "%plural{1:device|:devices}1; the program fails on a machine with fewer "
                   "than %2 GPUs; compare cuda::device_count() with the index")
            << (F.DevicesNeeded - 1) << F.DevicesEnsured << F.DevicesNeeded;
      if (F.GuardedRequest)
        Check.diag(F.GuardedRequest->getExprLoc(),
                   "CUDA is requested under an availability check here", DiagnosticIDs::Note);
      if (const NamedDecl *Called = calledBy(F.WeakestCall))
        Check.diag(F.WeakestCall->getExprLoc(),
                   "%0 is called here %select{with no availability check|where the checks "
                   "ensure only %2 CUDA %plural{1:device|:devices}2}1",
                   DiagnosticIDs::Note)
            << Called << (F.DevicesEnsured > 0) << F.DevicesEnsured;
    }

  private:
    // The function a call calls, or the class a construction makes.
    static const NamedDecl *calledBy(const Expr *Call) {
      if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Call))
        return Construct->getConstructor()->getParent();
      const auto *Direct = dyn_cast_or_null<CallExpr>(Call);
      return Direct ? Direct->getDirectCallee() : nullptr;
    }

    UnguardedCudaCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
