// The device-string grammar, for string literals such as `t.to("cuda:1")`:
//   cpu | cuda | cuda:N | sim | sim:N      N: decimal, no sign, no leading zeros
// It must accept exactly what the runtime's pl::Device::parse accepts
// (runtime/src/core/device.cpp). The analyzer links no runtime, so the
// grammar is restated here and unit-tested against the same cases.
#pragma once

#include "placelint/analysis/DeviceLattice.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace placelint::analysis {

// The device a string names, or nullopt when the string is not a device.
std::optional<AbstractDevice> parseDeviceString(llvm::StringRef Text);

} // namespace placelint::analysis
