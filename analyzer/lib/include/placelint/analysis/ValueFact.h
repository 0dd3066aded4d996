// What the device analysis knows about one value (a tensor, a Device,
// tensor options or a module) at one program point: the lattice element of
// the flow analysis plus what the notes and the loop rules need.
#pragma once

#include "placelint/analysis/DeviceLattice.h"
#include "placelint/analysis/Findings.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace clang {
class Expr;
class NamedDecl;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

struct ValueFact {
  DeviceSet Devices;
  ZeroDim Dim = ZeroDim::Unknown;
  Origin From;
  // After a merge, where each member of Devices came from (empty when From
  // explains them all).
  llvm::SmallVector<std::pair<AbstractDevice, Origin>, 2> MemberOrigins;
  // TensorOptions that name no device (the default device, cpu, applies).
  bool OptionsWithoutDevice = false;
  // When the value is the unchanged result of a transfer: that call, and the
  // devices it moved the tensor from (for round trips).
  const clang::Expr *TransferCall = nullptr;
  DeviceSet TransferSource;
  // When the value is a tensor a factory made on the host (no device given)
  // and nothing has computed with it yet: that factory call.
  const clang::Expr *HostFactory = nullptr;
  // A tensor made to require grad (by its factory's options or
  // requires_grad_()), a leaf that autograd gives a gradient; for options,
  // that they ask for it.
  bool RequiresGrad = false;
  // When the value is the copy that a move made of a tensor that requires
  // grad (a non-leaf, which gets no gradient of its own): that move.
  const clang::Expr *NonLeafMove = nullptr;
  // The result of an operation that mismatched: it would have thrown, so
  // nothing computed from it is reported again.
  bool AfterMismatch = false;

  static ValueFact on(DeviceSet Devices, ZeroDim Dim = ZeroDim::Unknown) {
    ValueFact Fact;
    Fact.Devices = Devices;
    Fact.Dim = Dim;
    return Fact;
  }
  static ValueFact unknown() { return on(DeviceSet::unknown()); }
  ValueFact join(const ValueFact &Other) const;
  // Where the value got Device, one of its members.
  Origin originOf(const AbstractDevice &Device) const;
  // Sets one origin for all members.
  void setOrigin(Origin Where) {
    From = Where;
    MemberOrigins.clear();
  }
  // Drops what only holds for the value as it is, not for values derived
  // from it (the transfer that made it).
  void forgetTransfer() {
    TransferCall = nullptr;
    TransferSource = DeviceSet();
    HostFactory = nullptr;
  }
  friend bool operator==(const ValueFact &, const ValueFact &) = default;
};

// `dev` for a symbolic device's variable.
std::string symbolName(const clang::NamedDecl *Var);

} // namespace placelint::analysis
