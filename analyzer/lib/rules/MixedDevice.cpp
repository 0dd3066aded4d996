// placement-mixed-device: an operation whose tensor operands are, or may
// be, on different devices (docs/rules/placement-mixed-device.md).
#include "rules/Rules.h"

#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

namespace placelint::analysis {

void diagnoseMixedDevice(const FunctionFacts &Facts, FindingsHandler &Handler) {
  for (const Operation &Op : Facts.operations()) {
    std::optional<Conflict> Found = findConflict(Op.Operands);
    if (!Found)
      continue;
    MixedDeviceFinding Finding;
    Finding.Call = Op.Call;
    Finding.OpName = Op.Name;
    Finding.First = {Found->First->E, Found->First->Fact.Devices,
                     Found->First->Fact.originOf(Found->FirstDevice)};
    Finding.Second = {Found->Second->E, Found->Second->Fact.Devices,
                      Found->Second->Fact.originOf(Found->SecondDevice)};
    Finding.FirstDevice = Found->FirstDevice;
    Finding.SecondDevice = Found->SecondDevice;
    if (Found->Definite)
      Handler.onMixedDevice(Finding);
    else
      Handler.onMayMixedDevice(Finding);
  }
  for (const CalleeFailure &Failure : Facts.calleeFailures()) {
    if (Failure.Definite)
      Handler.onMixedDevice(Failure.Finding);
    else
      Handler.onMayMixedDevice(Failure.Finding);
  }
}

} // namespace placelint::analysis
