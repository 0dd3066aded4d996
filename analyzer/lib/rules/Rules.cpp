#include "rules/Rules.h"

namespace placelint::analysis {

llvm::ArrayRef<Diagnoser> allDiagnosers() {
  static constexpr Diagnoser All[] = {diagnoseMixedDevice, diagnoseDiscardedTransfer,
                                      diagnoseTransferInLoop};
  return All;
}

} // namespace placelint::analysis
