// The backend interface: what a device implementation provides to the
// front end (after ggml's backend interfaces, kept small). Which devices
// exist is not the backend's business but its enumerator's
// (core/device_enumerator.h).
//
//   memory   allocate / deallocate on one device (a caching allocator
//            behind them), and byte copies host->device, device->host and
//            device->device within the backend;
//   kernels  fill, strided copy with cast, elementwise unary and binary
//            (broadcasting expressed by zero strides), reductions, gemm.
//
// Contract: the front end (src/core) validates every operand before it
// calls a backend: devices, shapes, dtypes and indices are already right,
// all tensors of one call are on the one device passed as `device` (a
// resolved index, never "current"; -1 only for the cpu, which has none).
// Backends never re-check user input; they may PL_ASSERT their own
// invariants. Errors a backend can still hit (out of memory, a failing
// driver) are thrown as pl::AllocationError / pl::DeviceError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <pl/device.h>
#include <pl/dim_vector.h>
#include <pl/error.h>
#include <pl/scalar_type.h>

namespace pl::backend {

// Kernel operands carry their sizes inline, so that a TensorArg can be
// passed by value to a device kernel: at most pl::kMaxDims (dim_vector.h),
// which the front end enforces with a pl::ShapeError.
using pl::kMaxDims;

// One strided operand of a kernel. `data` points at the first element (the
// storage base plus the view's offset). Strides are in elements; a stride of
// 0 repeats an element (broadcasting). A 0-dim tensor has dim == 0 and one
// element.
struct TensorArg {
  void *data;
  ScalarType dtype;
  std::int32_t dim;
  std::int64_t sizes[kMaxDims];
  std::int64_t strides[kMaxDims];
};

// A scalar operand, already converted by the front end to the dtype of the
// kernel: kernels on floating types read `floating`, kernels on Long and Bool
// read `integral` (Bool: nonzero is true).
struct ScalarArg {
  double floating;
  std::int64_t integral;
};

// The kernels' ops: one per PL_UNARY_OP, PL_BINARY_OP (and PL_BINARY_KERNEL)
// and PL_REDUCE_OP entry of <placelint/ops.def>, in its order. An elementwise
// op runs the functor of its name (functors::Exp for UnaryOp::Exp) on the
// element types its DTypes column admits (core/dispatch.h); EqualMask is
// functors::EqualMask, which only the backward formulas use.
enum class UnaryOp : std::int8_t {
#define PL_UNARY_OP(Name, ...) Name,
#include <placelint/ops.def>
};
enum class BinaryOp : std::int8_t {
#define PL_BINARY_OP(Name, ...) Name,
#define PL_BINARY_KERNEL(Name, ...) Name,
#include <placelint/ops.def>
};
enum class ReduceOp : std::int8_t {
#define PL_REDUCE_OP(Name, ...) Name,
#include <placelint/ops.def>
};

// A backend's stream, opaque to the front end (cudaStream_t for CUDA).
using StreamHandle = void *;

// A point recorded in a stream's work (Backend::record_event): complete once
// the work queued there before it has finished. pl::Event holds one, and
// the pinned block cache keeps one per queued copy of a block.
class StreamEvent {
public:
  virtual ~StreamEvent() = default;
  virtual bool done() = 0;
  virtual void synchronize() = 0;
  // Milliseconds from `start` to this event, both complete, of one backend.
  virtual double elapsed_ms_since(StreamEvent &start) = 0;
};

// Row-major batched C = op(A) * op(B) (op = transpose when trans_*), where
// op(A) is m x k, op(B) is k x n and C is m x n, all of `dtype` (Float or
// Double). lda/ldb/ldc are the row strides (in elements) of A, B, C as
// stored (before op); batch i uses a + i*batch_stride_a, and so on.
// C is contiguous and does not alias A or B. k may be 0 (C becomes zeros).
struct GemmArgs {
  ScalarType dtype;
  bool trans_a;
  bool trans_b;
  std::int64_t m, n, k;
  std::int64_t batch;
  const void *a;
  std::int64_t lda, batch_stride_a;
  const void *b;
  std::int64_t ldb, batch_stride_b;
  void *c;
  std::int64_t ldc, batch_stride_c;
};

class Backend {
public:
  virtual ~Backend() = default;

  // ---- memory -------------------------------------------------------------
  // nbytes > 0. Throws pl::AllocationError naming the size and device when
  // the memory cannot be had (after the caching allocator released its cache).
  virtual void *allocate(DeviceIndex device, std::size_t nbytes) = 0;
  // ptr and nbytes exactly as returned by / passed to allocate().
  virtual void deallocate(DeviceIndex device, void *ptr, std::size_t nbytes) noexcept = 0;

  // Host memory -> device memory, on the current stream. The front end asks
  // non_blocking only with `src` in this backend's pinned memory
  // (allocate_pinned_host): then the backend returns before the copy runs
  // and keeps src's block from reuse until it has (PinnedBlockCache).
  // Otherwise synchronous: src may be freed or changed once this returns.
  virtual void copy_from_host(void *dst, DeviceIndex dst_device, const void *src,
                              std::size_t nbytes, bool non_blocking) = 0;
  // Device memory -> host memory. Synchronous (dst is valid on return)
  // unless non_blocking, which the front end asks only with dst in pinned
  // host memory (allocate_pinned_host): then dst is valid once the device's
  // current stream has reached the copy (synchronize_stream).
  virtual void copy_to_host(void *dst, const void *src, DeviceIndex src_device,
                            std::size_t nbytes, bool non_blocking) = 0;
  // Between two devices of this backend (src_device != dst_device).
  virtual void copy_between_devices(void *dst, DeviceIndex dst_device, const void *src,
                                    DeviceIndex src_device, std::size_t nbytes) = 0;

  // ---- kernels --------------------------------------------------------------
  // Every element of out = value (converted per ScalarArg).
  virtual void fill(DeviceIndex device, const TensorArg &out, ScalarArg value) = 0;
  // out = cast<out.dtype>(in), elementwise; same sizes; dtypes may differ.
  // out and in do not overlap.
  virtual void copy(DeviceIndex device, const TensorArg &out, const TensorArg &in) = 0;
  // out = op(in); same sizes, same dtype. out either is exactly `in` (same
  // data and strides: in place) or does not overlap it.
  virtual void unary(DeviceIndex device, UnaryOp op, const TensorArg &out, const TensorArg &in) = 0;
  // out = op(a, b); a and b already have out's sizes (broadcast dims have
  // stride 0); all three the same dtype. out either is exactly a or b (in
  // place) or overlaps neither.
  virtual void binary(DeviceIndex device, BinaryOp op, const TensorArg &out, const TensorArg &a,
                      const TensorArg &b) = 0;
  // out = op(a, s), or op(s, a) when scalar_is_lhs; as binary otherwise.
  virtual void binary_scalar(DeviceIndex device, BinaryOp op, const TensorArg &out,
                             const TensorArg &a, ScalarArg s, bool scalar_is_lhs) = 0;
  // Reduces `in` over the dimensions whose bit is set in reduced_dims
  // (bit d = dimension d). out.dim == in.dim, out.sizes[d] == 1 for reduced
  // dims and == in.sizes[d] otherwise. Sum, Mean, Max: out.dtype == in.dtype
  // (Mean only on floating types; an empty Mean gives NaN, an empty Sum 0).
  // ArgMax: exactly one reduced dim, out.dtype == Long, the index along it.
  // Max and ArgMax are never called with an empty reduced extent.
  virtual void reduce(DeviceIndex device, ReduceOp op, const TensorArg &out, const TensorArg &in,
                      std::uint32_t reduced_dims) = 0;
  virtual void gemm(DeviceIndex device, const GemmArgs &args) = 0;

  // ---- optional: pinned host memory and streams ------------------------------
  // The defaults fit a backend whose work completes within each call (cpu):
  // no pinned memory, one stream (the default, handle nullptr), no events.

  // Page-locked host memory that this backend's devices copy from and to
  // asynchronously, from a caching allocator; nullptr when the backend has
  // none (has_pinned_host_memory() false; the front end reports it). Freed
  // blocks are reused only after the copies queued on them have finished.
  virtual bool has_pinned_host_memory() const { return false; }
  virtual void *allocate_pinned_host(std::size_t /*nbytes*/) { return nullptr; }
  virtual void deallocate_pinned_host(void * /*ptr*/) noexcept {}

  // Streams are opaque handles (the backend's native ones; nullptr is the
  // device's default stream). Every kernel, copy and library call of this
  // backend on `device` runs on the calling thread's current stream there.
  virtual StreamHandle current_stream(DeviceIndex /*device*/) { return nullptr; }
  virtual void set_current_stream(DeviceIndex /*device*/, StreamHandle /*stream*/) {}
  // One of a few streams created once per device, handed out in turn.
  virtual StreamHandle stream_from_pool(DeviceIndex /*device*/, bool /*high_priority*/) {
    return nullptr;
  }
  // Waits until the work queued on the stream so far has finished.
  virtual void synchronize_stream(DeviceIndex /*device*/, StreamHandle /*stream*/) {}
  // Whether the work queued on the stream so far has finished.
  virtual bool stream_idle(DeviceIndex /*device*/, StreamHandle /*stream*/) { return true; }
  // Waits until all work queued on the device, on any stream, has finished.
  virtual void synchronize_device(DeviceIndex /*device*/) {}
  // An event after the work queued on `stream` so far; nullptr for a
  // backend without streams (the front end reports it).
  virtual std::shared_ptr<StreamEvent> record_event(DeviceIndex /*device*/,
                                                    StreamHandle /*stream*/) {
    return nullptr;
  }
  // Later work on `stream` waits for `event` (of any backend).
  virtual void stream_wait_event(DeviceIndex /*device*/, StreamHandle /*stream*/,
                                 std::shared_ptr<StreamEvent> /*event*/) {}
};

// The backend of a device type (core/registry.cpp). Throws pl::DeviceError
// ("this build has no CUDA support") for a type that is not built in; never
// returns a null one.
Backend &backend_for(DeviceType type);

} // namespace pl::backend
