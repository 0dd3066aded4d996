// The device-type registry: each device type's enumerator and backend,
// registered once in the one list of what this build has (as ggml's backend
// registry does), and device resolution and availability on top of it. The
// front end asks the registry; it has no per-device-type code.
#include <array>
#include <sstream>

#include <pl/cuda.h>
#include <placelint/rule_ids.h>

#include "core/builtin_backends.h"
#include "core/internal.h"

namespace pl {
namespace backend {
namespace {

// A device type whose backend this build does not have: it has no devices,
// and asking for one says that the build lacks it.
class NotBuiltIn final : public DeviceEnumerator {
public:
  constexpr NotBuiltIn(std::string_view name, std::string_view rule) : name_(name), rule_(rule) {}

  int device_count() const noexcept override { return 0; }
  DeviceIndex current_device() const override {
    PL_ASSERT(false && "current_device() of a device type with no devices");
    return -1;
  }
  std::string_view missing_device_rule() const noexcept override { return rule_; }
  std::string missing_device_reason(int) const override {
    return "this build has no " + std::string(name_) + " support";
  }

private:
  std::string_view name_;
  std::string_view rule_;
};

#if !defined(PL_HAVE_CUDA)
constexpr NotBuiltIn kNoCudaSupport("CUDA", PL_RULE_ID_UnguardedCuda);
#endif

class Registry {
public:
  Registry() {
    add(DeviceType::CPU, cpu_devices(), &cpu_backend());
    add(DeviceType::Sim, sim_devices(), &sim_backend());
#if defined(PL_HAVE_CUDA)
    add(DeviceType::CUDA, cuda_devices(), &cuda_backend());
#else
    add(DeviceType::CUDA, kNoCudaSupport, nullptr);
#endif
    for (const Entry &entry : entries_)
      PL_ASSERT(entry.devices != nullptr && "a device type without an enumerator");
  }

  const DeviceEnumerator &devices(DeviceType type) const { return *entry(type).devices; }
  // Null when the build has no backend for the type.
  Backend *backend(DeviceType type) const { return entry(type).backend; }

private:
  struct Entry {
    const DeviceEnumerator *devices = nullptr;
    Backend *backend = nullptr;
  };
  // DeviceType's values are 0, 1, ... up to its last one, Sim.
  static constexpr std::size_t kDeviceTypeCount = static_cast<std::size_t>(DeviceType::Sim) + 1;

  void add(DeviceType type, const DeviceEnumerator &devices, Backend *backend) {
    entries_[static_cast<std::size_t>(type)] = Entry{&devices, backend};
  }
  const Entry &entry(DeviceType type) const {
    const auto index = static_cast<std::size_t>(type);
    PL_ASSERT(index < kDeviceTypeCount);
    return entries_[index];
  }

  std::array<Entry, kDeviceTypeCount> entries_{};
};

const Registry &registry() {
  // Trivially destructible: still usable while storages are freed during
  // static destruction.
  static const Registry instance;
  return instance;
}

// "<rule>: <device> requested[ at <call site>], but <why>".
[[noreturn, gnu::cold]] void missing_device_error(const DeviceEnumerator &devices, Device requested,
                                                  std::string_view call_site, int count) {
  const std::string_view rule = devices.missing_device_rule();
  detail::fail<DeviceError>(rule, rule.empty() ? "" : ": ", requested, " requested",
                            call_site.empty() ? "" : " at ", call_site, ", but ",
                            devices.missing_device_reason(count));
}

std::string call_site(std::source_location loc) {
  std::ostringstream text;
  text << loc.file_name() << ':' << loc.line();
  return text.str();
}

} // namespace

const DeviceEnumerator &devices_for(DeviceType type) { return registry().devices(type); }

Backend &backend_for(DeviceType type) {
  Backend *const backend = registry().backend(type);
  if (backend == nullptr) [[unlikely]]
    missing_device_error(devices_for(type), Device(type), {}, 0);
  return *backend;
}

} // namespace backend

namespace cuda {

int device_count() { return backend::devices_for(DeviceType::CUDA).device_count(); }

bool is_available() { return device_count() > 0; }

} // namespace cuda

namespace detail {

Device resolve_device(Device requested, std::source_location loc) {
  const backend::DeviceEnumerator &devices = backend::devices_for(requested.type());
  const int count = devices.device_count();
  if (count == 0) [[unlikely]]
    backend::missing_device_error(devices, requested, backend::call_site(loc), count);
  const DeviceIndex index = requested.has_index() ? requested.index() : devices.current_device();
  if (index >= count) [[unlikely]]
    backend::missing_device_error(devices, requested, backend::call_site(loc), count);
  // The request itself when it was already concrete (always for the cpu):
  // no second validation of a valid Device on this per-op path.
  return index == requested.index() ? requested : Device(requested.type(), index);
}

} // namespace detail
} // namespace pl
