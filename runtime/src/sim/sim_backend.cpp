// The sim backend: a simulated accelerator with kDeviceCount devices. Each
// device has its own host allocations (its own caching allocator), runs the
// host kernels, and every copy to, from or between sim devices is counted.
#include <array>
#include <atomic>
#include <cstring>
#include <memory>

#include <pl/sim.h>

#include "core/builtin_backends.h"
#include "host/caching_allocator.h"
#include "host/host_kernel_backend.h"

namespace pl {
namespace backend {
namespace {

constexpr std::size_t kMaxCachedBytesPerDevice = std::size_t{256} << 20;

struct AtomicStats {
  std::atomic<std::uint64_t> host_to_device_bytes{0};
  std::atomic<std::uint64_t> device_to_host_bytes{0};
  std::atomic<std::uint64_t> device_to_device_bytes{0};
  std::atomic<std::uint64_t> host_to_device_copies{0};
  std::atomic<std::uint64_t> device_to_host_copies{0};
  std::atomic<std::uint64_t> device_to_device_copies{0};
};

class SimDevices final : public DeviceEnumerator {
public:
  int device_count() const noexcept override { return sim::kDeviceCount; }
  // A request for "sim" means sim:0: sim has no current device to change.
  DeviceIndex current_device() const override { return 0; }
  std::string_view missing_device_rule() const noexcept override { return {}; }
  std::string missing_device_reason(int count) const override {
    return "there are only " + std::to_string(count) + " sim devices (sim:0 to sim:" +
           std::to_string(count - 1) + ")";
  }
};

class SimBackend final : public HostKernelBackend {
public:
  SimBackend() {
    for (int i = 0; i < sim::kDeviceCount; ++i)
      allocators_[i] = std::make_unique<host::CachingHostAllocator>("sim:" + std::to_string(i),
                                                                   kMaxCachedBytesPerDevice);
  }

  void *allocate(DeviceIndex device, std::size_t nbytes) override {
    return allocator(device).allocate(nbytes);
  }
  void deallocate(DeviceIndex device, void *ptr, std::size_t nbytes) noexcept override {
    allocator(device).deallocate(ptr, nbytes);
  }
  void copy_from_host(void *dst, DeviceIndex, const void *src, std::size_t nbytes, bool) override {
    std::memcpy(dst, src, nbytes);
    stats_.host_to_device_bytes += nbytes;
    ++stats_.host_to_device_copies;
  }
  void copy_to_host(void *dst, const void *src, DeviceIndex, std::size_t nbytes, bool) override {
    std::memcpy(dst, src, nbytes);
    stats_.device_to_host_bytes += nbytes;
    ++stats_.device_to_host_copies;
  }
  void copy_between_devices(void *dst, DeviceIndex, const void *src, DeviceIndex,
                            std::size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
    stats_.device_to_device_bytes += nbytes;
    ++stats_.device_to_device_copies;
  }

  sim::TransferStats transfer_stats() const {
    sim::TransferStats s;
    s.host_to_device_bytes = stats_.host_to_device_bytes;
    s.device_to_host_bytes = stats_.device_to_host_bytes;
    s.device_to_device_bytes = stats_.device_to_device_bytes;
    s.host_to_device_copies = stats_.host_to_device_copies;
    s.device_to_host_copies = stats_.device_to_host_copies;
    s.device_to_device_copies = stats_.device_to_device_copies;
    return s;
  }
  void reset_transfer_stats() {
    stats_.host_to_device_bytes = 0;
    stats_.device_to_host_bytes = 0;
    stats_.device_to_device_bytes = 0;
    stats_.host_to_device_copies = 0;
    stats_.device_to_host_copies = 0;
    stats_.device_to_device_copies = 0;
  }
  std::uint64_t allocated_bytes(int device) const {
    return allocators_[static_cast<std::size_t>(device)]->stats().allocated_bytes;
  }

private:
  host::CachingHostAllocator &allocator(DeviceIndex device) {
    PL_ASSERT(device >= 0 && device < sim::kDeviceCount);
    return *allocators_[static_cast<std::size_t>(device)];
  }

  std::array<std::unique_ptr<host::CachingHostAllocator>, sim::kDeviceCount> allocators_;
  AtomicStats stats_;
};

SimBackend &sim_instance() {
  // Never destroyed: storages may be freed during static destruction.
  static SimBackend *const instance = new SimBackend();
  return *instance;
}

} // namespace

const DeviceEnumerator &sim_devices() {
  static const SimDevices instance;
  return instance;
}

Backend &sim_backend() { return sim_instance(); }

} // namespace backend

namespace sim {

int device_count() { return kDeviceCount; }
TransferStats transfer_stats() { return backend::sim_instance().transfer_stats(); }
void reset_transfer_stats() { backend::sim_instance().reset_transfer_stats(); }
std::uint64_t allocated_bytes(int index) {
  PL_CHECK(index >= 0 && index < kDeviceCount, DeviceError, "sim:", index,
           " does not exist: there are ", kDeviceCount, " sim devices");
  return backend::sim_instance().allocated_bytes(index);
}

} // namespace sim
} // namespace pl
