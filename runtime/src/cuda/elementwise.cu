// Fill, strided copy with cast, unary and binary elementwise kernels. The
// math is pl::functors (core/functors.h), the same functors the CPU backend
// runs; this file only maps threads to elements.
#include "cuda_error.h"
#include "kernels.h"
#include "strided_layout.cuh"

#include "core/dispatch.h"
#include "core/functors.h"

namespace pl::cuda::detail {
namespace {

// Calls apply(offsets) for every element; with Contiguous the offsets are the
// linear index itself, which saves the index arithmetic.
template <bool Contiguous, int N, class Apply>
__global__ void elementwise_kernel(StridedLayout<N> layout, std::int64_t numel, Apply apply) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < numel;
       i += stride) {
    std::int64_t offset[N];
    if constexpr (Contiguous) {
      for (int k = 0; k < N; ++k)
        offset[k] = i;
    } else {
      layout.offsets(i, offset);
    }
    apply(offset);
  }
}

std::int64_t numel_of(const TensorArg &t) {
  std::int64_t n = 1;
  for (int d = 0; d < t.dim; ++d)
    n *= t.sizes[d];
  return n;
}

// Launches `apply` over the shape of operands[0]; all operands share it.
template <int N, class Apply>
void launch_elementwise(cudaStream_t stream, const TensorArg *const (&operands)[N], Apply apply) {
  const TensorArg &shape = *operands[0];
  const std::int64_t *strides[N];
  for (int k = 0; k < N; ++k)
    strides[k] = operands[k]->strides;
  const StridedLayout<N> layout = collapse<N>(shape.sizes, shape.dim, strides);
  const std::int64_t numel = numel_of(shape);
  if (numel == 0)
    return;
  if (layout.contiguous())
    elementwise_kernel<true>
        <<<blocks_for(numel), kThreadsPerBlock, 0, stream>>>(layout, numel, apply);
  else
    elementwise_kernel<false>
        <<<blocks_for(numel), kThreadsPerBlock, 0, stream>>>(layout, numel, apply);
  PL_CUDA_CHECK_LAUNCH();
}

template <class T> T scalar_value(ScalarArg s) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(s.floating);
  else
    return functors::cast<T>(s.integral);
}

template <class T> struct FillApply {
  T *out;
  T value;
  __device__ void operator()(const std::int64_t (&offset)[1]) const { out[offset[0]] = value; }
};

template <class To, class From> struct CopyApply {
  To *out;
  const From *in;
  __device__ void operator()(const std::int64_t (&offset)[2]) const {
    out[offset[0]] = functors::cast<To>(in[offset[1]]);
  }
};

template <class T, class Op> struct UnaryApply {
  T *out;
  const T *in;
  __device__ void operator()(const std::int64_t (&offset)[2]) const {
    out[offset[0]] = Op{}(in[offset[1]]);
  }
};

template <class T, class Op> struct BinaryApply {
  T *out;
  const T *a;
  const T *b;
  __device__ void operator()(const std::int64_t (&offset)[3]) const {
    out[offset[0]] = Op{}(a[offset[1]], b[offset[2]]);
  }
};

template <class T, class Op, bool ScalarIsLhs> struct BinaryScalarApply {
  T *out;
  const T *a;
  T s;
  __device__ void operator()(const std::int64_t (&offset)[2]) const {
    if constexpr (ScalarIsLhs)
      out[offset[0]] = Op{}(s, a[offset[1]]);
    else
      out[offset[0]] = Op{}(a[offset[1]], s);
  }
};

// Calls f(Op{}) for a binary op, instantiated only for the dtypes the front
// end dispatches (Sub: not Bool; Div: floating only), so that no kernel is
// built that can never run.
template <class T, class F> void visit_binary_op(BinaryOp op, F &&f) {
  switch (op) {
  case BinaryOp::Add:
    return f(functors::Add{});
  case BinaryOp::Mul:
    return f(functors::Mul{});
  case BinaryOp::Sub:
    if constexpr (!std::is_same_v<T, bool>)
      return f(functors::Sub{});
    break;
  case BinaryOp::Div:
    if constexpr (std::is_floating_point_v<T>)
      return f(functors::Div{});
    break;
  }
  PL_ASSERT(false && "binary op dispatched for a dtype the front end rejects");
}

// As visit_binary_op, for unary ops (Neg, Relu: not Bool; Exp, Log: floating).
template <class T, class F> void visit_unary_op(UnaryOp op, F &&f) {
  switch (op) {
  case UnaryOp::Neg:
    if constexpr (!std::is_same_v<T, bool>)
      return f(functors::Neg{});
    break;
  case UnaryOp::Relu:
    if constexpr (!std::is_same_v<T, bool>)
      return f(functors::Relu{});
    break;
  case UnaryOp::Exp:
    if constexpr (std::is_floating_point_v<T>)
      return f(functors::Exp{});
    break;
  case UnaryOp::Log:
    if constexpr (std::is_floating_point_v<T>)
      return f(functors::Log{});
    break;
  }
  PL_ASSERT(false && "unary op dispatched for a dtype the front end rejects");
}

} // namespace

void launch_fill(cudaStream_t stream, const TensorArg &out, ScalarArg value) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    launch_elementwise<1>(stream, {&out},
                          FillApply<T>{static_cast<T *>(out.data), scalar_value<T>(value)});
  });
}

void launch_copy(cudaStream_t stream, const TensorArg &out, const TensorArg &in) {
  backend::visit_dtype(out.dtype, [&](auto out_tag) {
    using To = decltype(out_tag);
    backend::visit_dtype(in.dtype, [&](auto in_tag) {
      using From = decltype(in_tag);
      launch_elementwise<2>(stream, {&out, &in}, CopyApply<To, From>{static_cast<To *>(out.data),
                                                             static_cast<const From *>(in.data)});
    });
  });
}

void launch_unary(cudaStream_t stream, UnaryOp op, const TensorArg &out, const TensorArg &in) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    visit_unary_op<T>(op, [&](auto op_tag) {
      using Op = decltype(op_tag);
      launch_elementwise<2>(stream, {&out, &in}, UnaryApply<T, Op>{static_cast<T *>(out.data),
                                                           static_cast<const T *>(in.data)});
    });
  });
}

void launch_binary(cudaStream_t stream, BinaryOp op, const TensorArg &out, const TensorArg &a,
                   const TensorArg &b) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    visit_binary_op<T>(op, [&](auto op_tag) {
      using Op = decltype(op_tag);
      launch_elementwise<3>(stream, {&out, &a, &b}, BinaryApply<T, Op>{static_cast<T *>(out.data),
                                                               static_cast<const T *>(a.data),
                                                               static_cast<const T *>(b.data)});
    });
  });
}

void launch_binary_scalar(cudaStream_t stream, BinaryOp op, const TensorArg &out,
                          const TensorArg &a, ScalarArg s, bool scalar_is_lhs) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    visit_binary_op<T>(op, [&](auto op_tag) {
      using Op = decltype(op_tag);
      auto *out_data = static_cast<T *>(out.data);
      const auto *a_data = static_cast<const T *>(a.data);
      if (scalar_is_lhs)
        launch_elementwise<2>(stream, {&out, &a},
                              BinaryScalarApply<T, Op, true>{out_data, a_data, scalar_value<T>(s)});
      else
        launch_elementwise<2>(stream, 
            {&out, &a}, BinaryScalarApply<T, Op, false>{out_data, a_data, scalar_value<T>(s)});
    });
  });
}

} // namespace pl::cuda::detail
