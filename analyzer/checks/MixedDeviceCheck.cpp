#include "MixedDeviceCheck.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

static constexpr bool DefaultReportMayMismatch = true;

MixedDeviceCheck::MixedDeviceCheck(StringRef Name, ClangTidyContext *Context)
    : PlacementCheck(Name, Context),
      ReportMayMismatch(
          Options.getLocalOrGlobal("ReportMayMismatch", DefaultReportMayMismatch)) {}

void MixedDeviceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  PlacementCheck::storeOptions(Opts);
  Options.store(Opts, "ReportMayMismatch", ReportMayMismatch);
}

void MixedDeviceCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(MixedDeviceCheck &Check) : Check(Check) {}

    void onMixedDevice(const MixedDeviceFinding &F) override {
      emit(F, "'%0' is on %1 but '%2' is on %3 in call to '%4'");
    }
    void onMayMixedDevice(const MixedDeviceFinding &F) override {
      if (Check.ReportMayMismatch)
        emit(F, "'%0' may be on %1 but '%2' is on %3 in call to '%4'");
    }

  private:
    void emit(const MixedDeviceFinding &F, StringRef Format) {
      // Two elements of one list (`cat(parts)`).
      bool OneList = F.First.Operand == F.Second.Operand;
      if (OneList)
        Format = "'%0' holds tensors on %1 and on %3 in call to '%4'";
      Check.diag(F.Call->getExprLoc(), Format)
          << Check.text(F.First.Operand) << device(F.FirstDevice)
          << Check.text(F.Second.Operand) << device(F.SecondDevice) << F.OpName;
      Check.noteOrigin(F.First, F.FirstDevice, OneList);
      Check.noteOrigin(F.Second, F.SecondDevice, OneList);
      if (F.Through)
        Check.diag(F.Through->getExprLoc(), "with the values this call gives it",
                   DiagnosticIDs::Note);
    }

    MixedDeviceCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
