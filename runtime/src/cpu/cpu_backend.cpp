// The cpu: one device without an index; its backend is host memory through
// the caching allocator and the host kernels (runtime/src/host).
#include <cstring>

#include "core/builtin_backends.h"
#include "host/caching_allocator.h"
#include "host/host_kernel_backend.h"
#include "host/thread_block_stash.h"

namespace pl::backend {
namespace {

constexpr std::size_t kMaxCachedBytes = std::size_t{1} << 30;

class CpuDevices final : public DeviceEnumerator {
public:
  int device_count() const noexcept override { return 1; }
  DeviceIndex current_device() const override { return -1; }
  std::string_view missing_device_rule() const noexcept override { return {}; }
  std::string missing_device_reason(int) const override { return "there is one cpu device"; }
};

class CpuBackend final : public HostKernelBackend {
public:
  void *allocate(DeviceIndex, std::size_t nbytes) override {
    host::ThreadBlockStash *stash = thread_stash();
    return stash != nullptr ? stash->allocate(nbytes) : allocator_.allocate(nbytes);
  }
  void deallocate(DeviceIndex, void *ptr, std::size_t nbytes) noexcept override {
    host::ThreadBlockStash *stash = thread_stash();
    if (stash != nullptr)
      stash->deallocate(ptr, nbytes);
    else
      allocator_.deallocate(ptr, nbytes);
  }
  void copy_from_host(void *dst, DeviceIndex, const void *src, std::size_t nbytes, bool) override {
    std::memcpy(dst, src, nbytes);
  }
  void copy_to_host(void *dst, const void *src, DeviceIndex, std::size_t nbytes, bool) override {
    std::memcpy(dst, src, nbytes);
  }
  void copy_between_devices(void *dst, DeviceIndex, const void *src, DeviceIndex,
                            std::size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
  }

private:
  // The calling thread's stash in front of the shared cache (safe because
  // this backend, the only instance, is never destroyed: cpu_backend()), or
  // nullptr once the thread's thread-locals are destroyed: tensors freed
  // later, by static destructors at exit, go straight to the allocator.
  host::ThreadBlockStash *thread_stash() {
    struct Holder {
      host::ThreadBlockStash stash;
      bool &retired;
      ~Holder() { retired = true; } // before `stash` hands its blocks back
    };
    thread_local bool retired = false; // trivially destructible: readable to the end
    if (retired)
      return nullptr;
    thread_local Holder holder{host::ThreadBlockStash(allocator_), retired};
    return &holder.stash;
  }

  host::CachingHostAllocator allocator_{"cpu", kMaxCachedBytes};
};

} // namespace

const DeviceEnumerator &cpu_devices() {
  static const CpuDevices instance;
  return instance;
}

Backend &cpu_backend() {
  // Never destroyed: storages may be freed during static destruction.
  static Backend *const instance = new CpuBackend();
  return *instance;
}

} // namespace pl::backend
