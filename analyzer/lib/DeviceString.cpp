#include "placelint/analysis/DeviceString.h"

#include <placelint/device_grammar.h>

namespace placelint::analysis {

std::optional<AbstractDevice> parseDeviceString(llvm::StringRef Text) {
  ParsedDevice Parsed = parseDevice(std::string_view(Text.data(), Text.size()));
  if (!Parsed.ok())
    return std::nullopt;
  return AbstractDevice::ofType(Parsed.kind, Parsed.index);
}

} // namespace placelint::analysis
