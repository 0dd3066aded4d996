// The kernel table of a synchronous backend whose memory is host memory
// (cpu): the host kernels, whatever device index they are asked to run on.
// Memory and copies stay with each backend. sim queues the same host
// kernels on its streams instead (sim/sim_backend.cpp).
#pragma once

#include "core/backend.h"
#include "host/kernels.h"

namespace pl::backend {

class HostKernelBackend : public Backend {
public:
  void fill(DeviceIndex, const TensorArg &out, ScalarArg value) override { host::fill(out, value); }
  void copy(DeviceIndex, const TensorArg &out, const TensorArg &in) override {
    host::copy(out, in);
  }
  void unary(DeviceIndex, UnaryOp op, const TensorArg &out, const TensorArg &in) override {
    host::unary(op, out, in);
  }
  void binary(DeviceIndex, BinaryOp op, const TensorArg &out, const TensorArg &a,
              const TensorArg &b) override {
    host::binary(op, out, a, b);
  }
  void binary_scalar(DeviceIndex, BinaryOp op, const TensorArg &out, const TensorArg &a,
                     ScalarArg s, bool scalar_is_lhs) override {
    host::binary_scalar(op, out, a, s, scalar_is_lhs);
  }
  void reduce(DeviceIndex, ReduceOp op, const TensorArg &out, const TensorArg &in,
              std::uint32_t reduced_dims) override {
    host::reduce(op, out, in, reduced_dims);
  }
  void gemm(DeviceIndex, const GemmArgs &args) override { host::gemm(args); }
};

} // namespace pl::backend
