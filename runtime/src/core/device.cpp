#include <pl/device.h>
#include <pl/error.h>

#include <placelint/device_grammar.h>

#include <cstdio>
#include <iterator>
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

[[noreturn]] void reject(std::string_view text, const placelint::ParsedDevice &parsed) {
  const std::string_view why = placelint::deviceParseErrorText(parsed.error);
  if (parsed.error == placelint::DeviceParseError::IndexNotTaken)
    detail::fail<DeviceError>("invalid device string '", printable(text), "': the ",
                              placelint::deviceKindName(parsed.kind), " ", why, "; ",
                              placelint::deviceGrammarText());
  detail::fail<DeviceError>("invalid device string '", printable(text), "': ", why, "; ",
                            placelint::deviceGrammarText());
}

// DeviceType and the shared grammar's DeviceKind are both devices.def's
// enumerators in its order, so the two convert by a cast.
#define PL_DEVICE_TYPE(Enumerator, Spelling, Index)                                                \
  static_assert(static_cast<int>(DeviceType::Enumerator) ==                                        \
                static_cast<int>(placelint::DeviceKind::Enumerator));
#include <placelint/devices.def>
#undef PL_DEVICE_TYPE

// Whether there are several devices of the type (devices.def's Index).
bool indexed(DeviceType type) {
  return placelint::deviceTypeEntry(static_cast<placelint::DeviceKind>(type)).indexed;
}

} // namespace

std::string_view device_type_name(DeviceType type) {
  return placelint::deviceKindName(static_cast<placelint::DeviceKind>(type));
}

std::ostream &operator<<(std::ostream &os, DeviceType type) { return os << device_type_name(type); }

Device::Device(DeviceType type, DeviceIndex index) : type_(type), index_(index) {
  validate();
  // There is one cpu: cpu:0 and cpu are the same value.
  if (!indexed(type_))
    index_ = -1;
}

Device::Device(const std::string &text) : Device(parse(text)) {}
Device::Device(const char *text) : Device(parse(text == nullptr ? std::string_view() : text)) {}

void Device::validate() const {
  PL_CHECK(static_cast<std::size_t>(type_) < std::size(placelint::kDeviceTypes), DeviceError,
           "invalid device type ", static_cast<int>(type_));
  PL_CHECK(index_ >= -1, DeviceError, "invalid device index ", index_, " for ", type_,
           ": the index must be -1 (current device) or non-negative");
  PL_CHECK(indexed(type_) || index_ <= 0, DeviceError, "invalid device index ", index_, " for ",
           type_, ": there is one ", type_, " device (index -1 or 0)");
}

Device Device::parse(std::string_view text) {
  const placelint::ParsedDevice parsed = placelint::parseDevice(text);
  if (!parsed.ok())
    reject(text, parsed);
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
