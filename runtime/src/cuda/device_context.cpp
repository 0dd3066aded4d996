#include "device_context.h"

#include "cuda_error.h"

#include "core/builtin_backends.h"

#include <cuda_runtime_api.h>
#include <placelint/rule_ids.h>
#include <string>

namespace pl::cuda::detail {
namespace {

// What the front end resolves "cuda" and "cuda:N" against.
class CudaDevices final : public backend::DeviceEnumerator {
public:
  int device_count() const noexcept override { return usable_device_count(); }

  DeviceIndex current_device() const override {
    int device = 0;
    PL_CUDA_CHECK(cudaGetDevice(&device));
    return static_cast<DeviceIndex>(device);
  }

  std::string_view missing_device_rule() const noexcept override {
    return PL_RULE_ID_UnguardedCuda;
  }

  std::string missing_device_reason(int count) const override {
    if (count == 0)
      return "no CUDA device is available (check pl::cuda::is_available())";
    const char *const devices_are = count == 1 ? " CUDA device is" : " CUDA devices are";
    return "only " + std::to_string(count) + devices_are +
           " available (check pl::cuda::device_count())";
  }
};

} // namespace

int usable_device_count() noexcept {
  static const int count = [] {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess) {
      // No driver or no GPU. The failed call leaves its status as the
      // thread's last error; clear it so that no later check reports it.
      (void)cudaGetLastError();
      return 0;
    }
    return devices;
  }();
  return count;
}

DeviceGuard::DeviceGuard(int device) : previous_(-1), current_(device) {
  PL_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != device)
    PL_CUDA_CHECK(cudaSetDevice(device));
}

DeviceGuard::~DeviceGuard() {
  // A destructor must not throw; restoring can only fail if the context is
  // already broken, and the next checked call reports that.
  if (previous_ != current_)
    (void)cudaSetDevice(previous_);
}

} // namespace pl::cuda::detail

namespace pl::backend {

const DeviceEnumerator &cuda_devices() {
  static const cuda::detail::CudaDevices instance;
  return instance;
}

} // namespace pl::backend
