// The streams and events of libtorch's CUDA API that the download_* and
// upload_* programs use, as c10/cuda/CUDAStream.h, c10/cuda/CUDAGuard.h and
// ATen/cuda/CUDAEvent.h declare them (namespaces, aliases, signatures), for
// parsing them where no CUDA toolkit is installed: the real headers include
// the toolkit's cuda_runtime_api.h. The rest (<torch/torch.h>, c10::Stream)
// is the real libtorch's. Declarations only; cuda_extension_api.h is the
// extension programs' counterpart (a program includes one of the two).
#pragma once

#include <torch/torch.h>

typedef struct CUstream_st *cudaStream_t;

namespace c10::cuda {
class CUDAStream {
public:
  explicit CUDAStream(Stream stream);
  operator cudaStream_t() const;
  operator Stream() const;
  cudaStream_t stream() const;
  DeviceIndex device_index() const;
  bool query() const;
  void synchronize() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard() = delete;
  explicit CUDAStreamGuard(Stream stream);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  ~CUDAStreamGuard();
};
} // namespace c10::cuda

namespace at::cuda {
using c10::cuda::CUDAStream;
using c10::cuda::CUDAStreamGuard;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getStreamFromPool;
struct CUDAEvent {
  CUDAEvent();
  CUDAEvent(unsigned int flags);
  CUDAEvent(const CUDAEvent &) = delete;
  CUDAEvent(CUDAEvent &&other);
  ~CUDAEvent();
  bool query() const;
  void record();
  void recordOnce(const CUDAStream &stream);
  void record(const CUDAStream &stream);
  void block(const CUDAStream &stream);
  float elapsed_time(const CUDAEvent &other) const;
  void synchronize() const;
};
} // namespace at::cuda
