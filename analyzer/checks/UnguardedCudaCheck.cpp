#include "UnguardedCudaCheck.h"

#include "clang/AST/Expr.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

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
    }

  private:
    UnguardedCudaCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
