#include "TransferInLoopCheck.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

static constexpr bool DefaultSyncInLoop = true;
static constexpr bool DefaultSyncOnDeviceVariable = true;

TransferInLoopCheck::TransferInLoopCheck(StringRef Name, ClangTidyContext *Context)
    : PlacementCheck(Name, Context),
      SyncInLoop(Options.getLocalOrGlobal("SyncInLoop", DefaultSyncInLoop)),
      SyncOnDeviceVariable(
          Options.getLocalOrGlobal("SyncOnDeviceVariable", DefaultSyncOnDeviceVariable)) {}

void TransferInLoopCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  PlacementCheck::storeOptions(Opts);
  Options.store(Opts, "SyncInLoop", SyncInLoop);
  Options.store(Opts, "SyncOnDeviceVariable", SyncOnDeviceVariable);
}

void TransferInLoopCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(TransferInLoopCheck &Check) : Check(Check) {}

    void onInvariantTransferInLoop(const LoopTransferFinding &F) override {
      if (F.PerCallOf) {
        if (F.TargetDeviceOf)
          Check.diag(F.Call->getExprLoc(), "'%0' is moved to the device of '%1' on every call of "
                                           "'%2' but does not change between calls")
              << Check.text(F.Receiver) << Check.text(F.TargetDeviceOf) << F.PerCallOf->getName();
        else
          Check.diag(F.Call->getExprLoc(),
                     "'%0' is moved to %1 on every call of '%2' but does not change between calls")
              << Check.text(F.Receiver) << devices(F.Target) << F.PerCallOf->getName();
        Check.diag(F.PerCallOf->getLocation(),
                   "move it once, where the object is made (or register it as a buffer)",
                   DiagnosticIDs::Note);
        return;
      }
      if (F.Whole) {
        Check.diag(F.Call->getExprLoc(),
                   "a part of '%0' is moved to %1 on every iteration of an outer loop in "
                   "which '%0' does not change")
            << Check.text(F.Whole) << devices(F.Target);
        Check.diag(F.Loop->getBeginLoc(), "move '%0' to the device once, before this loop",
                   DiagnosticIDs::Note)
            << Check.text(F.Whole);
        return;
      }
      Check.diag(F.Call->getExprLoc(),
                 "'%0' is moved to %1 on every iteration but does not change in the loop")
          << Check.text(F.Receiver) << devices(F.Target);
      Check.diag(F.Loop->getBeginLoc(), "hoist the transfer before this loop",
                 DiagnosticIDs::Note);
    }
    void onRoundTripInLoop(const RoundTripFinding &F) override {
      std::string Receiver = Check.text(F.Receiver);
      Check.diag(F.Call->getExprLoc(),
                 "'%0' is moved back to %1 right after it was moved to %2, on every "
                 "iteration")
          << Receiver << devices(F.Target) << devices(F.Intermediate);
      Check.diag(F.FirstTransfer->getExprLoc(), "'%0' was moved to %1 here",
                 DiagnosticIDs::Note)
          << Receiver << devices(F.Intermediate);
      Check.diag(F.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    }
    void onSyncInLoop(const SyncFinding &F) override {
      if (!Check.SyncInLoop || (F.FromDeviceVariable && !Check.SyncOnDeviceVariable))
        return;
      Check.diag(F.Call->getExprLoc(),
                 F.FromDeviceVariable
                     ? "'%0' may be on a CUDA device (%1) and is copied to the host on every "
                       "iteration of the loop"
                     : "'%0' is copied from %1 to the host on every iteration of the loop")
          << Check.text(F.Receiver) << devices(F.Source);
      Check.diag(F.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    }
    void onElementWriteInLoop(const LoopTransferFinding &F) override {
      // A Device variable's device may be the host, where such writes cost
      // nothing special.
      Check.diag(F.Call->getExprLoc(),
                 F.Target.allConcrete()
                     ? "'%0' on %1 is written from the host one element at a time, on every "
                       "iteration of the loop: each write is a separate operation on the device"
                     : "'%0' may be on a CUDA device (%1) and is written from the host one "
                       "element at a time, on every iteration of the loop: each write is a "
                       "separate operation on the device")
          << Check.text(F.Receiver) << devices(F.Target);
      Check.diag(F.Loop->getBeginLoc(),
                 "fill a host tensor in this loop and move it to the device once, after it",
                 DiagnosticIDs::Note);
    }

  private:
    TransferInLoopCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
