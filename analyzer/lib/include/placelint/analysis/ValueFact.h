// What the device analysis knows about one value (a tensor, a Device,
// tensor options or a module) at one program point: the lattice element of
// the flow analysis, where it came from (for notes), and the call that made
// it. Nothing here is particular to one rule.
#pragma once

#include "placelint/analysis/DeviceLattice.h"
#include "placelint/analysis/Findings.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace clang {
class CallExpr;
class Expr;
class NamedDecl;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

class FunctionFacts;

struct ValueFact {
  DeviceSet Devices;
  ZeroDim Dim = ZeroDim::Unknown;
  Origin From;
  // After a merge, where each member of Devices came from (empty when From
  // explains them all).
  llvm::SmallVector<std::pair<AbstractDevice, Origin>, 2> MemberOrigins;
  // TensorOptions that name no device (the default device, cpu, applies).
  bool OptionsWithoutDevice = false;
  // The call that made the value, when the value is unchanged since:
  // copies, std::move and assignments pass it on; computing with it makes a
  // new value. What that call was (its kind, its arguments' facts) is the
  // value's provenance, which rules read through FunctionFacts.
  const clang::Expr *MadeBy = nullptr;
  // The analysis MadeBy belongs to when a function the unit calls made the
  // value (a helper's result, a field a constructor set): provenance
  // queries follow it there. Null: the function being analysed.
  const FunctionFacts *MadeIn = nullptr;
  // The non_blocking copy to the host whose bytes the value may still be
  // waiting for: set by the copy, cleared by a synchronisation. A join
  // keeps it (synchronised on one path only is not synchronised), and
  // MadeBy still names the copy after it is cleared.
  const clang::CallExpr *Pending = nullptr;
  // The result of an operation that mismatched: it would have thrown, so
  // nothing computed from it is reported again.
  bool AfterMismatch = false;

  // Made by Call, an expression of the function being analysed.
  void setMaker(const clang::Expr *Call) {
    MadeBy = Call;
    MadeIn = nullptr;
  }
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
  friend bool operator==(const ValueFact &, const ValueFact &) = default;
};

// `dev` for a symbolic device's variable.
std::string symbolName(const clang::NamedDecl *Var);

} // namespace placelint::analysis
