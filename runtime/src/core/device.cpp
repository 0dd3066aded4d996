#include <pl/device.h>
#include <pl/error.h>

#include <placelint/device_grammar.h>

#include <cstdio>
#include <ostream>
#include <string>

namespace pl {
namespace {

// The text as a message quotes it: bytes that are not printable ASCII as
// \xNN (a NUL would otherwise end what() in the middle of the message).
std::string printable(std::string_view text) {
  std::string out;
  for (const unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  return out;
}

[[noreturn]] void reject(std::string_view text, std::string_view why) {
  detail::fail<DeviceError>("invalid device string '", printable(text), "': ", why, "; ",
                            placelint::kDeviceGrammar);
}

// DeviceType mirrors the shared grammar's DeviceKind value for value, so the
// two convert by a cast.
static_assert(static_cast<int>(DeviceType::CPU) == static_cast<int>(placelint::DeviceKind::CPU));
static_assert(static_cast<int>(DeviceType::CUDA) == static_cast<int>(placelint::DeviceKind::CUDA));
static_assert(static_cast<int>(DeviceType::Sim) == static_cast<int>(placelint::DeviceKind::Sim));

} // namespace

std::string_view device_type_name(DeviceType type) {
  return placelint::deviceKindName(static_cast<placelint::DeviceKind>(type));
}

std::ostream &operator<<(std::ostream &os, DeviceType type) { return os << device_type_name(type); }

Device::Device(DeviceType type, DeviceIndex index) : type_(type), index_(index) {
  validate();
  // There is one cpu: cpu:0 and cpu are the same value.
  if (type_ == DeviceType::CPU)
    index_ = -1;
}

Device::Device(const std::string &text) : Device(parse(text)) {}
Device::Device(const char *text) : Device(parse(text == nullptr ? std::string_view() : text)) {}

void Device::validate() const {
  PL_CHECK(type_ == DeviceType::CPU || type_ == DeviceType::CUDA || type_ == DeviceType::Sim,
           DeviceError, "invalid device type ", static_cast<int>(type_));
  PL_CHECK(index_ >= -1, DeviceError, "invalid device index ", index_, " for ", type_,
           ": the index must be -1 (current device) or non-negative");
  PL_CHECK(type_ != DeviceType::CPU || index_ <= 0, DeviceError, "invalid device index ", index_,
           " for cpu: there is one cpu device (index -1 or 0)");
}

Device Device::parse(std::string_view text) {
  const placelint::ParsedDevice parsed = placelint::parseDevice(text);
  if (!parsed.ok())
    reject(text, placelint::deviceParseErrorText(parsed.error));
  return Device(static_cast<DeviceType>(parsed.kind), parsed.index);
}

std::string Device::str() const {
  std::string text(device_type_name(type_));
  if (has_index())
    text += ":" + std::to_string(index_);
  return text;
}

std::ostream &operator<<(std::ostream &os, const Device &device) { return os << device.str(); }

} // namespace pl
