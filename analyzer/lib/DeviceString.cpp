#include "placelint/analysis/DeviceString.h"

#include <limits>

namespace placelint::analysis {

namespace {

// A decimal index: "0" or a non-zero digit followed by digits, fitting in
// int16_t (the runtime's index type).
std::optional<std::int16_t> parseIndex(llvm::StringRef Text) {
  if (Text.empty() || (Text.size() > 1 && Text.front() == '0'))
    return std::nullopt;
  unsigned Value = 0;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return std::nullopt;
    Value = Value * 10 + static_cast<unsigned>(C - '0');
    if (Value > static_cast<unsigned>(std::numeric_limits<std::int16_t>::max()))
      return std::nullopt;
  }
  return static_cast<std::int16_t>(Value);
}

} // namespace

std::optional<AbstractDevice> parseDeviceString(llvm::StringRef Text) {
  auto [Type, IndexText] = Text.split(':');
  bool HasIndex = Text.contains(':');
  std::optional<std::int16_t> Index;
  if (HasIndex) {
    Index = parseIndex(IndexText);
    if (!Index)
      return std::nullopt;
  }
  if (Type == "cpu" && !HasIndex)
    return AbstractDevice::cpu();
  if (Type == "cuda")
    return HasIndex ? AbstractDevice::cuda(*Index) : AbstractDevice::cuda();
  if (Type == "sim")
    return HasIndex ? AbstractDevice::sim(*Index) : AbstractDevice::sim();
  return std::nullopt;
}

} // namespace placelint::analysis
