// Turns every CUDA runtime and cuBLAS status into a typed pl error. The
// backend never aborts on a driver failure: a failed call throws
// pl::DeviceError naming the call, the status and the source line, and
// exhausted device memory throws pl::AllocationError.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace pl::cuda::detail {

[[noreturn, gnu::cold]] void throw_cuda_error(cudaError_t status, const char *call,
                                              const char *file, int line);
[[noreturn, gnu::cold]] void throw_cublas_error(cublasStatus_t status, const char *call,
                                                const char *file, int line);
// Device memory is exhausted even after the cache was emptied; `detail`
// says what was in use.
[[noreturn, gnu::cold]] void throw_out_of_memory(int device, std::size_t bytes,
                                                 const std::string &detail);

// "4.00 GiB", "512 bytes": sizes for messages.
std::string format_bytes(std::size_t bytes);

} // namespace pl::cuda::detail

#define PL_CUDA_CHECK(call)                                                                        \
  do {                                                                                             \
    const cudaError_t pl_cuda_status_ = (call);                                                    \
    if (pl_cuda_status_ != cudaSuccess) [[unlikely]]                                               \
      ::pl::cuda::detail::throw_cuda_error(pl_cuda_status_, #call, __FILE__, __LINE__);            \
  } while (false)

#define PL_CUBLAS_CHECK(call)                                                                      \
  do {                                                                                             \
    const cublasStatus_t pl_cublas_status_ = (call);                                               \
    if (pl_cublas_status_ != CUBLAS_STATUS_SUCCESS) [[unlikely]]                                   \
      ::pl::cuda::detail::throw_cublas_error(pl_cublas_status_, #call, __FILE__, __LINE__);        \
  } while (false)

// A kernel launch reports a bad configuration through cudaGetLastError.
#define PL_CUDA_CHECK_LAUNCH() PL_CUDA_CHECK(cudaGetLastError())
