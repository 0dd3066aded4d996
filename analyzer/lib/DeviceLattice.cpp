#include "placelint/analysis/DeviceLattice.h"

#include <algorithm>
#include <functional>

namespace placelint::analysis {

bool operator<(const AbstractDevice &L, const AbstractDevice &R) {
  if (L.DeviceForm != R.DeviceForm)
    return L.DeviceForm < R.DeviceForm;
  if (L.Type != R.Type)
    return L.Type < R.Type;
  if (L.Index != R.Index)
    return L.Index < R.Index;
  return std::less<const clang::NamedDecl *>()(L.Symbol, R.Symbol);
}

Agreement compare(const AbstractDevice &L, const AbstractDevice &R) {
  if (!L.isConcrete() && !R.isConcrete())
    return L.symbol() == R.symbol() ? Agreement::Same : Agreement::Unrelated;
  if (!L.isConcrete() || !R.isConcrete())
    return Agreement::MayDiffer;
  if (L.type() != R.type())
    return Agreement::Differ;
  // The cpu has one device; the current device of a type is its device 0
  // unless the program changes it (`.cuda()` next to `cuda:1` is a bug in
  // most programs; one that switches devices with a guard is rarer).
  if (L.isCpu())
    return Agreement::Same;
  auto IndexOf = [](const AbstractDevice &D) {
    return D.index() == AbstractDevice::kCurrentIndex ? 0 : D.index();
  };
  return IndexOf(L) == IndexOf(R) ? Agreement::Same : Agreement::Differ;
}

std::string describe(const AbstractDevice &Device, SymbolNamer NameOf) {
  if (Device.isModuleDevice())
    return "the device of '" + NameOf(Device.symbol()) + "'";
  if (!Device.isConcrete())
    return "the device in '" + NameOf(Device.symbol()) + "'";
  std::string Type(deviceKindName(Device.type()));
  if (Device.isCpu() || Device.index() == AbstractDevice::kCurrentIndex)
    return Type;
  return Type + ":" + std::to_string(Device.index());
}

DeviceSet DeviceSet::unknown() {
  DeviceSet Result;
  Result.State = Shape::Unknown;
  return Result;
}

DeviceSet DeviceSet::of(const AbstractDevice &Device) {
  DeviceSet Result;
  Result.State = Shape::Set;
  Result.Size = 1;
  Result.Members[0] = Device;
  return Result;
}

std::optional<AbstractDevice> DeviceSet::single() const {
  if (State == Shape::Set && Size == 1)
    return Members[0];
  return std::nullopt;
}

bool DeviceSet::allConcrete() const {
  return State == Shape::Set &&
         std::all_of(devices().begin(), devices().end(),
                     [](const AbstractDevice &D) { return D.isConcrete(); });
}

bool DeviceSet::excludesCpu() const {
  return State == Shape::Set && std::none_of(devices().begin(), devices().end(),
                                             [](const AbstractDevice &D) { return D.isCpu(); });
}

DeviceSet DeviceSet::join(const DeviceSet &Other) const {
  if (isBottom() || Other.isUnknown())
    return Other;
  if (Other.isBottom() || isUnknown())
    return *this;
  // Merge two sorted member lists.
  std::array<AbstractDevice, 2 * kMaxDevices> Merged{
      AbstractDevice::cpu(), AbstractDevice::cpu(), AbstractDevice::cpu(),
      AbstractDevice::cpu(), AbstractDevice::cpu(), AbstractDevice::cpu(),
      AbstractDevice::cpu(), AbstractDevice::cpu()};
  auto End = std::set_union(devices().begin(), devices().end(),
                            Other.devices().begin(), Other.devices().end(),
                            Merged.begin());
  std::size_t Count = static_cast<std::size_t>(End - Merged.begin());
  if (Count > kMaxDevices)
    return unknown();
  DeviceSet Result;
  Result.State = Shape::Set;
  Result.Size = static_cast<std::uint8_t>(Count);
  std::copy(Merged.begin(), End, Result.Members.begin());
  return Result;
}

DeviceSet
DeviceSet::forgetIf(llvm::function_ref<bool(const AbstractDevice &)> Drop) const {
  if (!isKnown())
    return *this;
  for (const AbstractDevice &D : devices())
    if (Drop(D))
      return unknown();
  return *this;
}

DeviceSet DeviceSet::substitute(const AbstractDevice &From, const DeviceSet &To) const {
  if (!isKnown() || !llvm::is_contained(devices(), From))
    return *this;
  DeviceSet Result = To.isBottom() ? DeviceSet::unknown() : To;
  for (const AbstractDevice &D : devices())
    if (!(D == From))
      Result = Result.join(DeviceSet::of(D));
  return Result;
}

bool operator==(const DeviceSet &L, const DeviceSet &R) {
  return L.State == R.State && L.devices() == R.devices();
}

std::string DeviceSet::describe(SymbolNamer NameOf) const {
  if (isBottom())
    return "bottom";
  if (isUnknown())
    return "unknown";
  std::string Text;
  for (const AbstractDevice &D : devices()) {
    if (!Text.empty())
      Text += " or ";
    Text += analysis::describe(D, NameOf);
  }
  return Text;
}

ZeroDim join(ZeroDim L, ZeroDim R) {
  if (L == R)
    return L;
  return notZeroDim(L) && notZeroDim(R) ? ZeroDim::No : ZeroDim::Unknown;
}

ZeroDim broadcast(ZeroDim L, ZeroDim R) {
  if (L == ZeroDim::Matrix || R == ZeroDim::Matrix)
    return ZeroDim::Matrix;
  if (L == ZeroDim::No || R == ZeroDim::No)
    return ZeroDim::No;
  return join(L, R);
}

const char *describe(ZeroDim Value) {
  switch (Value) {
  case ZeroDim::Yes:
    return "0-dim";
  case ZeroDim::No:
  case ZeroDim::Matrix:
    return "not 0-dim";
  case ZeroDim::Unknown:
    break;
  }
  return "rank unknown";
}

} // namespace placelint::analysis
