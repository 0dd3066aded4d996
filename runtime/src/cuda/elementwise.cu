// Fill, strided copy with cast, unary and binary elementwise kernels. The
// math is pl::functors (core/functors.h), the same functors the CPU backend
// runs; this file only maps threads to elements: 16-byte vector accesses
// where every operand is contiguous and aligned, strided offsets elsewhere.
#include "cuda_error.h"
#include "kernels.h"
#include "strided_layout.cuh"
#include "vector_pack.cuh"

#include "core/dispatch.h"
#include "core/functors.h"

#include <algorithm>
#include <cstdint>

namespace pl::cuda::detail {
namespace {

// Every elementwise op is out = fn(inputs...) with K = 0, 1 or 2 inputs (fill,
// copy/unary/scalar op, binary op); a missing input is a null pointer of the
// output's type. `fn` is one of pl::functors or a small adapter over one.
template <int K, class Fn, class A, class B>
__device__ auto compute(const Fn &fn, const A &a, const B &b) {
  if constexpr (K == 0)
    return fn();
  else if constexpr (K == 1)
    return fn(a);
  else
    return fn(a, b);
}

// The contiguous path: no index arithmetic beyond p * W. Each thread handles
// whole packs (grid-stride), then the last numel % W elements, one thread
// each. All pointers must be aligned to a pack (checked on the host).
template <int W, int K, class Out, class A, class B, class Fn>
__global__ void contiguous_kernel(Out *out, const A *a, const B *b, std::int64_t numel, Fn fn) {
  const std::int64_t first = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  const std::int64_t packs = numel / W;
  for (std::int64_t p = first; p < packs; p += stride) {
    Pack<A, W> in_a{};
    Pack<B, W> in_b{};
    if constexpr (K >= 1)
      in_a = reinterpret_cast<const Pack<A, W> *>(a)[p];
    if constexpr (K >= 2)
      in_b = reinterpret_cast<const Pack<B, W> *>(b)[p];
    Pack<Out, W> result;
#pragma unroll
    for (int j = 0; j < W; ++j)
      result.value[j] = compute<K>(fn, in_a.value[j], in_b.value[j]);
    reinterpret_cast<Pack<Out, W> *>(out)[p] = result;
  }
  const std::int64_t tail = packs * W + first;
  if (tail < numel) {
    A x{};
    B y{};
    if constexpr (K >= 1)
      x = a[tail];
    if constexpr (K >= 2)
      y = b[tail];
    out[tail] = compute<K>(fn, x, y);
  }
}

// The strided path (broadcasting, transposed views): offsets from the
// collapsed layout, operand 0 being the output.
template <int K, class Out, class A, class B, class Fn>
__global__ void strided_kernel(StridedLayout<K + 1> layout, std::int64_t numel, Out *out,
                               const A *a, const B *b, Fn fn) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < numel;
       i += stride) {
    std::int64_t offset[K + 1];
    layout.offsets(i, offset);
    A x{};
    B y{};
    if constexpr (K >= 1)
      x = a[offset[1]];
    if constexpr (K >= 2)
      y = b[offset[2]];
    out[offset[0]] = compute<K>(fn, x, y);
  }
}

std::int64_t numel_of(const TensorArg &t) {
  std::int64_t n = 1;
  for (int d = 0; d < t.dim; ++d)
    n *= t.sizes[d];
  return n;
}

// out = fn(a, b) over the shape of `out` (a and b already broadcast to it;
// K says how many of them there are). Contiguous operands that are all
// aligned take the vectorised kernel; other contiguous ones the same kernel
// one element at a time; the rest the strided kernel.
template <int K, class Out, class A = Out, class B = Out, class Fn>
void launch_elementwise(cudaStream_t stream, Fn fn, const TensorArg &out,
                        const TensorArg *a = nullptr, const TensorArg *b = nullptr) {
  const std::int64_t numel = numel_of(out);
  if (numel == 0)
    return;
  auto *out_data = static_cast<Out *>(out.data);
  const A *a_data = nullptr;
  const B *b_data = nullptr;
  const std::int64_t *strides[K + 1];
  strides[0] = out.strides;
  if constexpr (K >= 1) {
    a_data = static_cast<const A *>(a->data);
    strides[1] = a->strides;
  }
  if constexpr (K >= 2) {
    b_data = static_cast<const B *>(b->data);
    strides[2] = b->strides;
  }
  const StridedLayout<K + 1> layout = collapse<K + 1>(out.sizes, out.dim, strides);
  if (!layout.contiguous()) {
    strided_kernel<K><<<blocks_for(numel), kThreadsPerBlock, 0, stream>>>(layout, numel, out_data,
                                                                          a_data, b_data, fn);
    PL_CUDA_CHECK_LAUNCH();
    return;
  }
  constexpr std::size_t widest = std::max({sizeof(Out), sizeof(A), sizeof(B)});
  constexpr int kWidth = static_cast<int>(kPackBytes / widest);
  const bool aligned = pack_aligned(out_data) && (K < 1 || pack_aligned(a_data)) &&
                       (K < 2 || pack_aligned(b_data));
  if (aligned)
    contiguous_kernel<kWidth, K><<<blocks_for((numel + kWidth - 1) / kWidth), kThreadsPerBlock, 0,
                                   stream>>>(out_data, a_data, b_data, numel, fn);
  else
    contiguous_kernel<1, K>
        <<<blocks_for(numel), kThreadsPerBlock, 0, stream>>>(out_data, a_data, b_data, numel, fn);
  PL_CUDA_CHECK_LAUNCH();
}

template <class T> T scalar_value(ScalarArg s) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(s.floating);
  else
    return functors::cast<T>(s.integral);
}

template <class T> struct FillValue {
  T value;
  __device__ T operator()() const { return value; }
};

template <class To> struct CastTo {
  template <class From> __device__ To operator()(From x) const { return functors::cast<To>(x); }
};

template <class T, class Op, bool ScalarIsLhs> struct WithScalar {
  T s;
  __device__ T operator()(T x) const {
    if constexpr (ScalarIsLhs)
      return Op{}(s, x);
    else
      return Op{}(x, s);
  }
};

} // namespace

void launch_fill(cudaStream_t stream, const TensorArg &out, ScalarArg value) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    launch_elementwise<0, T>(stream, FillValue<T>{scalar_value<T>(value)}, out);
  });
}

void launch_copy(cudaStream_t stream, const TensorArg &out, const TensorArg &in) {
  backend::visit_dtype(out.dtype, [&](auto out_tag) {
    using To = decltype(out_tag);
    backend::visit_dtype(in.dtype, [&](auto in_tag) {
      using From = decltype(in_tag);
      launch_elementwise<1, To, From>(stream, CastTo<To>{}, out, &in);
    });
  });
}

void launch_unary(cudaStream_t stream, UnaryOp op, const TensorArg &out, const TensorArg &in) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_unary_op<T>(
        op, [&](auto op_tag) { launch_elementwise<1, T>(stream, op_tag, out, &in); });
  });
}

void launch_binary(cudaStream_t stream, BinaryOp op, const TensorArg &out, const TensorArg &a,
                   const TensorArg &b) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_binary_op<T>(
        op, [&](auto op_tag) { launch_elementwise<2, T>(stream, op_tag, out, &a, &b); });
  });
}

void launch_binary_scalar(cudaStream_t stream, BinaryOp op, const TensorArg &out,
                          const TensorArg &a, ScalarArg s, bool scalar_is_lhs) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_binary_op<T>(op, [&](auto op_tag) {
      using Op = decltype(op_tag);
      if (scalar_is_lhs)
        launch_elementwise<1, T>(stream, WithScalar<T, Op, true>{scalar_value<T>(s)}, out, &a);
      else
        launch_elementwise<1, T>(stream, WithScalar<T, Op, false>{scalar_value<T>(s)}, out, &a);
    });
  });
}

} // namespace pl::cuda::detail
