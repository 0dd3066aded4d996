#include "device_context.h"

#include "cuda_error.h"

#include <cuda_runtime_api.h>

namespace pl::cuda::detail {

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
