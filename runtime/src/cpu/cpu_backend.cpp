// The cpu backend: host memory through the caching allocator, host kernels.
#include <cstring>

#include "core/builtin_backends.h"
#include "cpu/caching_allocator.h"
#include "cpu/host_kernel_backend.h"

namespace pl::backend {
namespace {

constexpr std::size_t kMaxCachedBytes = std::size_t{1} << 30;

class CpuBackend final : public HostKernelBackend {
public:
  DeviceType device_type() const noexcept override { return DeviceType::CPU; }
  int device_count() const noexcept override { return 1; }
  DeviceIndex current_device() const override { return -1; }

  void *allocate(DeviceIndex, std::size_t nbytes) override { return allocator_.allocate(nbytes); }
  void deallocate(DeviceIndex, void *ptr, std::size_t nbytes) noexcept override {
    allocator_.deallocate(ptr, nbytes);
  }
  void copy_from_host(void *dst, DeviceIndex, const void *src, std::size_t nbytes, bool) override {
    std::memcpy(dst, src, nbytes);
  }
  void copy_to_host(void *dst, const void *src, DeviceIndex, std::size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
  }
  void copy_between_devices(void *dst, DeviceIndex, const void *src, DeviceIndex,
                            std::size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
  }

private:
  cpu::CachingHostAllocator allocator_{"cpu", kMaxCachedBytes};
};

} // namespace

Backend &cpu_backend() {
  // Never destroyed: storages may be freed during static destruction.
  static Backend *const instance = new CpuBackend();
  return *instance;
}

} // namespace pl::backend
