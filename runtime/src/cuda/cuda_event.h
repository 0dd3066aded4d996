// A CUDA event as the backend's StreamEvent (core/backend.h): pl::Event on
// cuda, and the event the pinned block cache keeps per queued copy.
#pragma once

#include <cuda_runtime_api.h>

#include "core/backend.h"

namespace pl::cuda::detail {

class CudaEvent final : public backend::StreamEvent {
public:
  // Records a new event on `stream` of `device`, after the work queued so far.
  CudaEvent(int device, cudaStream_t stream);
  ~CudaEvent() override;
  CudaEvent(const CudaEvent &) = delete;
  CudaEvent &operator=(const CudaEvent &) = delete;

  bool done() override;
  void synchronize() override;
  double elapsed_ms_since(backend::StreamEvent &start) override;
  cudaEvent_t native() const noexcept { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

} // namespace pl::cuda::detail
