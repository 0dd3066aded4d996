#include "cuda_error.h"

#include <pl/error.h>

#include <cstdio>

namespace pl::cuda::detail {
namespace {

const char *cublas_status_name(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "unknown cuBLAS status";
}

} // namespace

void throw_cuda_error(cudaError_t status, const char *call, const char *file, int line) {
  // Clear the thread's last error so that it does not resurface in an
  // unrelated later check. Sticky errors (a kernel fault) cannot be cleared:
  // every later call reports them again, which is what the user needs to see.
  (void)cudaGetLastError();
  pl::detail::fail<DeviceError>("CUDA error: ", cudaGetErrorString(status), " (",
                                cudaGetErrorName(status), ") in ", call, " at ", file, ":", line);
}

void throw_cublas_error(cublasStatus_t status, const char *call, const char *file, int line) {
  pl::detail::fail<DeviceError>("cuBLAS error: ", cublas_status_name(status), " in ", call, " at ",
                                file, ":", line);
}

void throw_out_of_memory(int device, std::size_t bytes, const std::string &detail) {
  pl::detail::fail<AllocationError>("cuda:", device, ": cannot allocate ", format_bytes(bytes),
                                    ": out of device memory (", detail, ")");
}

std::string format_bytes(std::size_t bytes) {
  constexpr const char *kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %s", value, kUnits[unit]);
  return text;
}

} // namespace pl::cuda::detail
