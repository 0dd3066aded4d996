// The CUDA kernels behind the backend's kernel table. Each launches on
// `stream` (the calling thread's current stream on the device) and returns
// without waiting; the caller has made the device current. Operands satisfy
// backend.h's contract.
#pragma once

#include "core/backend.h"

#include <cstdint>
#include <cuda_runtime_api.h>

namespace pl::cuda::detail {

using backend::BinaryOp;
using backend::ReduceOp;
using backend::ScalarArg;
using backend::TensorArg;
using backend::UnaryOp;

void launch_fill(cudaStream_t stream, const TensorArg &out, ScalarArg value);
void launch_copy(cudaStream_t stream, const TensorArg &out, const TensorArg &in);
void launch_unary(cudaStream_t stream, UnaryOp op, const TensorArg &out, const TensorArg &in);
void launch_binary(cudaStream_t stream, BinaryOp op, const TensorArg &out, const TensorArg &a,
                   const TensorArg &b);
void launch_binary_scalar(cudaStream_t stream, BinaryOp op, const TensorArg &out,
                          const TensorArg &a, ScalarArg s, bool scalar_is_lhs);
// Needs `device` for its scratch memory (partial results of a split reduction).
void launch_reduce(int device, cudaStream_t stream, ReduceOp op, const TensorArg &out,
                   const TensorArg &in, std::uint32_t reduced_dims);

} // namespace pl::cuda::detail
