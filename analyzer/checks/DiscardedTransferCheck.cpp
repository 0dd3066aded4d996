#include "DiscardedTransferCheck.h"

#include "clang/AST/Expr.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void DiscardedTransferCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(DiscardedTransferCheck &Check) : Check(Check) {}

    void onDiscardedTransfer(const DiscardedTransferFinding &F) override {
      std::string Receiver = Check.text(F.Receiver);
      auto Diag = Check.diag(F.Call->getExprLoc(),
                             "the result of '%0' is discarded; '%1' is not moved in place")
                  << F.Method << Receiver;
      // `t.to(dev);` -> `t = t.to(dev);` keeps the moved tensor in `t`.
      SourceLocation Start = F.Call->getBeginLoc();
      if (F.ReceiverIsAssignable && Start.isFileID() && !Receiver.empty())
        Diag << FixItHint::CreateInsertion(Start, Receiver + " = ");
    }

  private:
    DiscardedTransferCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
