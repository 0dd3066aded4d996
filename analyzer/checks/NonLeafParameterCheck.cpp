#include "NonLeafParameterCheck.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void NonLeafParameterCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(NonLeafParameterCheck &Check) : Check(Check) {}

    void onNonLeafParameter(const NonLeafParameterFinding &F) override {
      StringRef Method = F.Move->getMethodDecl()->getName();
      {
        // At the move, where the fix goes (and where the runtime points):
        // the fix-it makes the tensor on the device, so it stays a leaf.
        auto Diag = Check.diag(F.Move->getExprLoc(),
                               "'.%0()' copies a tensor that requires grad, and the copy is "
                               "used as a parameter: it is not a leaf, so it never gets a "
                               "gradient; create the tensor on the device, or move it first "
                               "and call requires_grad_() after")
                    << Method;
        if (std::optional<PlacementCheck::FactoryOnDevice> New =
                F.Factory ? Check.factoryOnDevice(*F.Factory, *F.Move) : std::nullopt)
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(F.Move->getSourceRange()), New->Factory);
      }
      const char *Use = nullptr;
      switch (F.Kind) {
      case ParameterUseKind::Optimizer:
        Use = "the optimizer is given the copy '%0' here; it never updates it";
        break;
      case ParameterUseKind::GradRead:
        Use = "the copy's gradient is read here; '%0.grad()' stays undefined";
        break;
      case ParameterUseKind::Registered:
        Use = "the copy is registered as a parameter here";
        break;
      }
      Check.diag(F.Use->getExprLoc(), Use, DiagnosticIDs::Note) << Check.text(F.Tensor);
    }

  private:
    NonLeafParameterCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
