// Device: a small value type {type, index}, modelled on c10::Device.
//
// Grammar (the one source of truth, see Device::parse):
//   cpu | cuda | cuda:N | sim | sim:N      N: decimal, no sign, no leading zeros
// Index -1 means "the current device of that type" (cuda -> current CUDA
// device). The cpu device has no index: Device(kCPU, 0) is the same value as
// Device(kCPU). sim is a simulated accelerator for tests; it is never CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace pl {

// The device types of <placelint/devices.def>, in its order: CPU, CUDA, Sim,
// with their constants kCPU, kCUDA, kSim.
enum class DeviceType : std::int8_t {
#define PL_DEVICE_TYPE(Enumerator, Spelling, Index) Enumerator,
#include <placelint/devices.def>
#undef PL_DEVICE_TYPE
};

#define PL_DEVICE_TYPE(Enumerator, Spelling, Index)                                                \
  inline constexpr DeviceType k##Enumerator = DeviceType::Enumerator;
#include <placelint/devices.def>
#undef PL_DEVICE_TYPE

using DeviceIndex = std::int16_t;

// "cpu", "cuda", "sim".
std::string_view device_type_name(DeviceType type);
std::ostream &operator<<(std::ostream &os, DeviceType type);

class Device {
public:
  // Throws DeviceError for an index below -1 or a cpu index other than -1/0.
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  // Parses the grammar above; throws DeviceError naming the string otherwise.
  /* implicit */ Device(const std::string &text);
  /* implicit */ Device(const char *text);

  static Device parse(std::string_view text);

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_sim() const noexcept { return type_ == DeviceType::Sim; }

  // Round-trips with parse(): Device::parse(d.str()) == d.
  std::string str() const;

  friend bool operator==(const Device &, const Device &) = default;

private:
  void validate() const;

  DeviceType type_;
  DeviceIndex index_;
};

std::ostream &operator<<(std::ostream &os, const Device &device);

} // namespace pl

template <> struct std::hash<pl::Device> {
  std::size_t operator()(const pl::Device &device) const noexcept {
    const auto type = static_cast<std::uint32_t>(static_cast<std::uint8_t>(device.type()));
    const auto index = static_cast<std::uint32_t>(static_cast<std::uint16_t>(device.index()));
    return std::hash<std::uint32_t>{}((type << 16) | index);
  }
};
