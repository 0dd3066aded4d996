// Device strings, for string literals such as `t.to("cuda:1")`, parsed with
// the project's one grammar (<placelint/device_grammar.h>, which pl::Device
// uses too), as an abstract device of the analysis.
#pragma once

#include "placelint/analysis/DeviceLattice.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace placelint::analysis {

// The device a string names, or nullopt when the string is not a device.
std::optional<AbstractDevice> parseDeviceString(llvm::StringRef Text);

} // namespace placelint::analysis
