// The host kernels: the kernel table of backend.h implemented with strided
// loops over the shared functors (core/functors.h), split over threads above
// kParallelGrain elements. Shared by every backend whose memory is host
// memory: the cpu's and sim's (through host_kernel_backend.h).
#pragma once

#include <cstdint>

#include "core/backend.h"

namespace pl::host {

void fill(const backend::TensorArg &out, backend::ScalarArg value);
void copy(const backend::TensorArg &out, const backend::TensorArg &in);
void unary(backend::UnaryOp op, const backend::TensorArg &out, const backend::TensorArg &in);
void binary(backend::BinaryOp op, const backend::TensorArg &out, const backend::TensorArg &a,
            const backend::TensorArg &b);
void binary_scalar(backend::BinaryOp op, const backend::TensorArg &out, const backend::TensorArg &a,
                   backend::ScalarArg s, bool scalar_is_lhs);
void reduce(backend::ReduceOp op, const backend::TensorArg &out, const backend::TensorArg &in,
            std::uint32_t reduced_dims);
void gemm(const backend::GemmArgs &args);

} // namespace pl::host
