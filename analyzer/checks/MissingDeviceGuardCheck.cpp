#include "MissingDeviceGuardCheck.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void MissingDeviceGuardCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(MissingDeviceGuardCheck &Check) : Check(Check) {}

    void onMissingDeviceGuard(const MissingDeviceGuardFinding &F) override {
      const auto *Call = dyn_cast<CallExpr>(F.Launch);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      switch (F.Kind) {
      case LaunchKind::Kernel:
        Check.diag(F.Launch->getExprLoc(),
                   "kernel launched on the current CUDA device with no device guard on this "
                   "path in %0; with its tensors on another GPU it runs on the wrong device")
            << F.Function;
        break;
      case LaunchKind::CurrentHandle:
        Check.diag(F.Launch->getExprLoc(),
                   "work given %0 runs on the current CUDA device with no device guard on this "
                   "path in %1; with its tensors on another GPU it runs on the wrong device")
            << Callee << F.Function;
        break;
      case LaunchKind::Call:
        Check.diag(F.Launch->getExprLoc(),
                   "%0 launches work on the current CUDA device with no device guard on this "
                   "path in %1; with its tensors on another GPU it runs on the wrong device")
            << Callee << F.Function;
        if (F.LaunchInCallee)
          Check.diag(F.LaunchInCallee->getExprLoc(), "the work is launched here",
                     DiagnosticIDs::Note);
        break;
      }
      if (F.UnguardedCall)
        Check.diag(F.UnguardedCall->getExprLoc(), "%0 is called here with no device guard",
                   DiagnosticIDs::Note)
            << F.Function;
      if (F.Tensor)
        Check.diag(F.Tensor->getLocation(),
                   "a device guard set from the device of %0 makes the work run where %0 is",
                   DiagnosticIDs::Note)
            << F.Tensor;
    }

  private:
    MissingDeviceGuardCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
