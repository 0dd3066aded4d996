#include "placelint/analysis/ValueFact.h"

#include "clang/AST/Decl.h"

namespace placelint::analysis {

std::string symbolName(const clang::NamedDecl *Var) {
  return Var ? Var->getNameAsString() : std::string("?");
}

ValueFact ValueFact::join(const ValueFact &Other) const {
  if (Devices.isBottom())
    return Other;
  if (Other.Devices.isBottom())
    return *this;
  // A value made by an operation that threw exists on no path that ran on:
  // the other path is the one that reaches here (a loop-carried mismatch
  // stays reported on every iteration).
  if (AfterMismatch != Other.AfterMismatch)
    return AfterMismatch ? Other : *this;
  ValueFact Result;
  Result.Devices = Devices.join(Other.Devices);
  Result.Dim = analysis::join(Dim, Other.Dim);
  // Keep the first origin for stable notes, and the origin of each device.
  Result.From = From.Kind != OriginKind::None ? From : Other.From;
  if (Devices == Other.Devices) {
    Result.MemberOrigins = MemberOrigins;
  } else if (Result.Devices.isKnown()) {
    for (const AbstractDevice &D : Result.Devices.devices())
      Result.MemberOrigins.push_back(
          {D, llvm::is_contained(Devices.devices(), D) ? originOf(D) : Other.originOf(D)});
  }
  Result.OptionsWithoutDevice = OptionsWithoutDevice && Other.OptionsWithoutDevice;
  Result.AfterMismatch = AfterMismatch;
  if (MadeBy == Other.MadeBy && MadeIn == Other.MadeIn) {
    Result.MadeBy = MadeBy;
    Result.MadeIn = MadeIn;
  }
  Result.Pending = Pending ? Pending : Other.Pending;
  return Result;
}

Origin ValueFact::originOf(const AbstractDevice &Device) const {
  for (const auto &[Member, Where] : MemberOrigins)
    if (Member == Device)
      return Where;
  return From;
}

} // namespace placelint::analysis
