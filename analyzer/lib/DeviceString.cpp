#include "placelint/analysis/DeviceString.h"

#include <placelint/device_grammar.h>

namespace placelint::analysis {

std::optional<AbstractDevice> parseDeviceString(llvm::StringRef Text) {
  ParsedDevice Parsed = parseDevice(std::string_view(Text.data(), Text.size()));
  if (!Parsed.ok())
    return std::nullopt;
  switch (Parsed.kind) {
  case placelint::DeviceKind::CPU:
    return AbstractDevice::cpu();
  case placelint::DeviceKind::CUDA:
    return AbstractDevice::cuda(Parsed.index);
  case placelint::DeviceKind::Sim:
    return AbstractDevice::sim(Parsed.index);
  }
  return std::nullopt;
}

} // namespace placelint::analysis
