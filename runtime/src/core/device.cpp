#include <pl/device.h>
#include <pl/error.h>

#include <limits>
#include <ostream>

namespace pl {
namespace {

constexpr std::string_view kGrammar =
    "expected cpu, cuda, cuda:N, sim or sim:N, with N a non-negative decimal index "
    "without leading zeros";

[[noreturn]] void reject(std::string_view text, std::string_view why) {
  detail::fail<DeviceError>("invalid device string '", text, "': ", why, "; ", kGrammar);
}

// Parses N of "type:N": digits only, no sign, no leading zero, fits DeviceIndex.
DeviceIndex parse_index(std::string_view text, std::string_view digits) {
  if (digits.empty())
    reject(text, "missing index after ':'");
  if (digits.size() > 1 && digits.front() == '0')
    reject(text, "leading zero in index");
  int value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      reject(text, "index is not a non-negative decimal number");
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<DeviceIndex>::max())
      reject(text, "index out of range");
  }
  return static_cast<DeviceIndex>(value);
}

} // namespace

std::string_view device_type_name(DeviceType type) {
  switch (type) {
  case DeviceType::CPU:
    return "cpu";
  case DeviceType::CUDA:
    return "cuda";
  case DeviceType::Sim:
    return "sim";
  }
  return "unknown";
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
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  DeviceType type;
  if (name == "cpu")
    type = DeviceType::CPU;
  else if (name == "cuda")
    type = DeviceType::CUDA;
  else if (name == "sim")
    type = DeviceType::Sim;
  else
    reject(text, "unknown device type");
  if (colon == std::string_view::npos)
    return Device(type);
  if (type == DeviceType::CPU)
    reject(text, "the cpu device takes no index");
  return Device(type, parse_index(text, text.substr(colon + 1)));
}

std::string Device::str() const {
  std::string text(device_type_name(type_));
  if (has_index())
    text += ":" + std::to_string(index_);
  return text;
}

std::ostream &operator<<(std::ostream &os, const Device &device) { return os << device.str(); }

} // namespace pl
