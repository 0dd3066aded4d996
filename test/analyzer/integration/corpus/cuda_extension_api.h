// The CUDA half of libtorch's extension API that the ext_* programs use, as
// ATen/cuda/CUDAContext.h, c10/cuda/CUDAGuard.h and c10/cuda/CUDAStream.h
// declare it (namespaces, aliases, signatures), for parsing them where no
// CUDA toolkit is installed: the real headers include the toolkit's
// cuda_runtime_api.h, cublas_v2.h and cusparse.h. The rest (<torch/torch.h>,
// c10::DeviceGuard, at::device_of) is the real libtorch's. Declarations only.
#pragma once

#include <torch/torch.h>

typedef struct CUstream_st *cudaStream_t;
typedef struct cublasContext *cublasHandle_t;
typedef enum cudaError { cudaSuccess = 0 } cudaError_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
extern "C" cudaError_t cudaSetDevice(int device);
extern "C" cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
extern "C" cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                                      cublasOperation_t transb, int m, int n, int k,
                                      const float *alpha, const float *A, int lda, const float *B,
                                      int ldb, const float *beta, float *C, int ldc);

namespace c10::cuda {
class CUDAStream {
public:
  operator cudaStream_t() const;
  cudaStream_t stream() const;
  DeviceIndex device_index() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getStreamFromPool(bool isHighPriority = false, DeviceIndex device = -1);
class CUDAGuard {
public:
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard &) = delete;
  ~CUDAGuard();
  void set_device(Device device);
  void set_index(DeviceIndex device_index);
};
class OptionalCUDAGuard {
public:
  explicit OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device_opt);
  OptionalCUDAGuard(const OptionalCUDAGuard &) = delete;
  ~OptionalCUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
};
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard(Stream stream);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  ~CUDAStreamGuard();
};
} // namespace c10::cuda

namespace at::cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::CUDAStream;
using c10::cuda::CUDAStreamGuard;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getStreamFromPool;
using c10::cuda::OptionalCUDAGuard;
cublasHandle_t getCurrentCUDABlasHandle();
} // namespace at::cuda
