#include "cuda_event.h"

#include "cuda_error.h"
#include "device_context.h"

#include <pl/error.h>

namespace pl::cuda::detail {

CudaEvent::CudaEvent(int device, cudaStream_t stream) {
  DeviceGuard guard(device);
  PL_CUDA_CHECK(cudaEventCreate(&event_));
  PL_CUDA_CHECK(cudaEventRecord(event_, stream));
}

CudaEvent::~CudaEvent() {
  // Destroying an event whose work is queued is allowed: CUDA frees it later.
  (void)cudaEventDestroy(event_);
}

bool CudaEvent::done() {
  const cudaError_t status = cudaEventQuery(event_);
  if (status == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  PL_CUDA_CHECK(status);
  return true;
}

void CudaEvent::synchronize() { PL_CUDA_CHECK(cudaEventSynchronize(event_)); }

double CudaEvent::elapsed_ms_since(backend::StreamEvent &start) {
  auto *const begin = dynamic_cast<CudaEvent *>(&start);
  PL_CHECK(begin != nullptr, Error,
           "elapsed_time: the events were recorded on different kinds of device");
  float ms = 0;
  PL_CUDA_CHECK(cudaEventElapsedTime(&ms, begin->event_, event_));
  return ms;
}

} // namespace pl::cuda::detail
