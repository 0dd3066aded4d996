#include "device_context.h"

#include "cuda_error.h"

#include <cuda_runtime_api.h>

namespace pl::cuda::detail {
namespace {

struct DeviceProbe {
  int count = 0;
  std::string reason;
};

const DeviceProbe &probe() {
  static const DeviceProbe result = [] {
    DeviceProbe p;
    const cudaError_t status = cudaGetDeviceCount(&p.count);
    if (status != cudaSuccess) {
      // The failed probe leaves the status as the thread's last error; clear
      // it so that it does not surface in an unrelated later check.
      (void)cudaGetLastError();
      p.count = 0;
      p.reason = cudaGetErrorString(status);
    } else if (p.count == 0) {
      p.reason = "the CUDA driver reports no device";
    }
    return p;
  }();
  return result;
}

} // namespace

int deviceCount() { return probe().count; }

const std::string &unavailableReason() { return probe().reason; }

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
