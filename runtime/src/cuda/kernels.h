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

void launchFill(const TensorArg &out, ScalarArg value);
void launchCopy(const TensorArg &out, const TensorArg &in);
void launchUnary(UnaryOp op, const TensorArg &out, const TensorArg &in);
void launchBinary(BinaryOp op, const TensorArg &out, const TensorArg &a, const TensorArg &b);
void launchBinaryScalar(BinaryOp op, const TensorArg &out, const TensorArg &a, ScalarArg s,
                        bool scalarIsLhs);
// Needs `device` for its scratch memory (partial results of a split reduction).
void launchReduce(int device, ReduceOp op, const TensorArg &out, const TensorArg &in,
                  std::uint32_t reducedDims);

} // namespace pl::cuda::detail
