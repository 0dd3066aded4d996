#include "NonLeafParameterCheck.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void NonLeafParameterCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(NonLeafParameterCheck &Check) : Check(Check) {}

    void onNonLeafParameter(const NonLeafParameterFinding &F) override {
      const char *Format = nullptr;
      switch (F.Kind) {
      case ParameterUseKind::Optimizer:
        Format = "the optimizer is given '%0', which is not a leaf: it is the copy that '%1' "
                 "made of a tensor that requires grad, so it gets no gradient and is never "
                 "updated";
        break;
      case ParameterUseKind::GradRead:
        Format = "'%0' is not a leaf: it is the copy that '%1' made of a tensor that requires "
                 "grad, so its grad() stays undefined";
        break;
      case ParameterUseKind::Registered:
        Format = "'%0' is registered as a parameter but is not a leaf: it is the copy that "
                 "'%1' made of a tensor that requires grad, so it gets no gradient";
        break;
      }
      StringRef Method = F.Move->getMethodDecl()->getName();
      {
        // One diagnostic in flight at a time. The fix-it, at the move,
        // makes the tensor on the device (so it stays a leaf).
        auto Diag = Check.diag(F.Use->getExprLoc(), Format)
                    << Check.text(F.Tensor) << ("." + Method + "()").str();
        if (std::optional<PlacementCheck::FactoryOnDevice> New =
                F.Factory ? Check.factoryOnDevice(*F.Factory, *F.Move) : std::nullopt)
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(F.Move->getSourceRange()), New->Factory);
      }
      Check.diag(F.Move->getExprLoc(),
                 "the leaf that requires grad is left behind here; create the tensor on the "
                 "device, or move it first and call requires_grad_() after",
                 DiagnosticIDs::Note);
    }

  private:
    NonLeafParameterCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
