// A small stand-in for libtorch 1.13's <ATen/cuda/CUDAContext.h>: the
// current device's library handles beside its stream (which the
// <torch/torch.h> mock declares). The real header needs the CUDA toolkit's.
#pragma once

#include <cuda_runtime.h>
#include <torch/torch.h>

namespace at::cuda {
cublasHandle_t getCurrentCUDABlasHandle();
} // namespace at::cuda
