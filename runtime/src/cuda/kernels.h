// The CUDA kernels behind the backend's kernel table. Each launches on the
// current device's legacy default stream and returns without waiting; the
// caller has made `device` current. Operands satisfy backend.h's contract.
#pragma once

#include "core/backend.h"

#include <cstdint>

namespace pl::cuda::detail {

using backend::BinaryOp;
using backend::ReduceOp;
using backend::ScalarArg;
using backend::TensorArg;
using backend::UnaryOp;

void launch_fill(const TensorArg &out, ScalarArg value);
void launch_copy(const TensorArg &out, const TensorArg &in);
void launch_unary(UnaryOp op, const TensorArg &out, const TensorArg &in);
void launch_binary(BinaryOp op, const TensorArg &out, const TensorArg &a, const TensorArg &b);
void launch_binary_scalar(BinaryOp op, const TensorArg &out, const TensorArg &a, ScalarArg s,
                          bool scalar_is_lhs);
// Needs `device` for its scratch memory (partial results of a split reduction).
void launch_reduce(int device, ReduceOp op, const TensorArg &out, const TensorArg &in,
                   std::uint32_t reduced_dims);

} // namespace pl::cuda::detail
