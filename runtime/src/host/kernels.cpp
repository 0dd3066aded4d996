#include "host/kernels.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include <cblas.h>

#include "core/dispatch.h"
#include "core/functors.h"
#include "host/thread_pool.h"

namespace pl::host {
namespace {

using backend::TensorArg;

std::int64_t numel_of(const TensorArg &arg) {
  std::int64_t n = 1;
  for (int d = 0; d < arg.dim; ++d)
    n *= arg.sizes[d];
  return n;
}

bool is_contiguous(const TensorArg &arg) {
  std::int64_t expected = 1;
  for (int d = arg.dim - 1; d >= 0; --d) {
    if (arg.sizes[d] != 1 && arg.strides[d] != expected)
      return false;
    expected *= arg.sizes[d];
  }
  return true;
}

// Visits the linear indices [begin, end) of `shape` (row-major order) for N
// operands that share its sizes but have their own strides. body(offsets,
// count, inner_strides) handles `count` consecutive elements of the last
// dimension, starting at the element offsets `offsets`.
template <std::size_t N, class Body>
void strided_range(const TensorArg &shape, const std::array<const TensorArg *, N> &operands,
                   std::int64_t begin, std::int64_t end, Body &&body) {
  std::array<std::int64_t, N> offsets{};
  std::array<std::int64_t, N> inner{};
  if (shape.dim == 0) {
    if (begin < end && begin == 0)
      body(offsets, std::int64_t{1}, inner);
    return;
  }
  const int last = shape.dim - 1;
  std::int64_t index[backend::kMaxDims];
  std::int64_t remaining = begin;
  for (int d = last; d >= 0; --d) {
    index[d] = remaining % shape.sizes[d];
    remaining /= shape.sizes[d];
  }
  for (std::size_t k = 0; k < N; ++k) {
    inner[k] = operands[k]->strides[last];
    for (int d = 0; d <= last; ++d)
      offsets[k] += index[d] * operands[k]->strides[d];
  }
  std::int64_t position = begin;
  while (position < end) {
    const std::int64_t count = std::min(shape.sizes[last] - index[last], end - position);
    body(offsets, count, inner);
    position += count;
    for (std::size_t k = 0; k < N; ++k)
      offsets[k] += count * inner[k];
    index[last] += count;
    for (int d = last; d > 0 && index[d] == shape.sizes[d]; --d) {
      for (std::size_t k = 0; k < N; ++k)
        offsets[k] += operands[k]->strides[d - 1] - index[d] * operands[k]->strides[d];
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

// Runs strided_range over all of `shape`, split across threads when large.
template <std::size_t N, class Body>
void strided_for_each(const TensorArg &shape, const std::array<const TensorArg *, N> &operands,
                      Body &&body) {
  const std::int64_t total = numel_of(shape);
  parallel_for(0, total, kParallelGrain, [&](std::int64_t begin, std::int64_t end) {
    strided_range<N>(shape, operands, begin, end, body);
  });
}

template <class T> T scalar_as(backend::ScalarArg s) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(s.floating);
  else
    return functors::cast<T>(s.integral);
}

template <class Op, class T>
void binary_typed(const TensorArg &out, const TensorArg &a, const TensorArg &b) {
  T *o = static_cast<T *>(out.data);
  const T *x = static_cast<const T *>(a.data);
  const T *y = static_cast<const T *>(b.data);
  const Op op;
  strided_for_each<3>(out, {&out, &a, &b}, [&](const auto &off, std::int64_t n, const auto &st) {
    T *po = o + off[0];
    const T *px = x + off[1];
    const T *py = y + off[2];
    if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
      for (std::int64_t i = 0; i < n; ++i)
        po[i] = op(px[i], py[i]);
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        po[i * st[0]] = op(px[i * st[1]], py[i * st[2]]);
    }
  });
}

template <class Op, class T>
void binary_scalar_typed(const TensorArg &out, const TensorArg &a, T s, bool scalar_is_lhs) {
  T *o = static_cast<T *>(out.data);
  const T *x = static_cast<const T *>(a.data);
  const Op op;
  strided_for_each<2>(out, {&out, &a}, [&](const auto &off, std::int64_t n, const auto &st) {
    T *po = o + off[0];
    const T *px = x + off[1];
    if (scalar_is_lhs) {
      for (std::int64_t i = 0; i < n; ++i)
        po[i * st[0]] = op(s, px[i * st[1]]);
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        po[i * st[0]] = op(px[i * st[1]], s);
    }
  });
}

template <class Op, class T> void unary_typed(const TensorArg &out, const TensorArg &in) {
  T *o = static_cast<T *>(out.data);
  const T *x = static_cast<const T *>(in.data);
  const Op op;
  strided_for_each<2>(out, {&out, &in}, [&](const auto &off, std::int64_t n, const auto &st) {
    T *po = o + off[0];
    const T *px = x + off[1];
    for (std::int64_t i = 0; i < n; ++i)
      po[i * st[0]] = op(px[i * st[1]]);
  });
}

// The reduced extent: sizes and input strides of the reduced dimensions.
struct ReducedSpace {
  int dim = 0;
  std::int64_t sizes[backend::kMaxDims];
  std::int64_t strides[backend::kMaxDims];
  std::int64_t count = 1;
};

ReducedSpace reduced_space(const TensorArg &in, std::uint32_t reduced_dims) {
  ReducedSpace space;
  for (int d = 0; d < in.dim; ++d) {
    if ((reduced_dims >> d) & 1u) {
      space.sizes[space.dim] = in.sizes[d];
      space.strides[space.dim] = in.strides[d];
      space.count *= in.sizes[d];
      ++space.dim;
    }
  }
  return space;
}

// Calls visit(offset) for every element of the reduced space, in index order.
template <class Visit> void for_each_reduced(const ReducedSpace &space, Visit &&visit) {
  if (space.count == 0)
    return;
  std::int64_t index[backend::kMaxDims] = {};
  std::int64_t offset = 0;
  for (std::int64_t i = 0; i < space.count; ++i) {
    visit(offset);
    for (int d = space.dim - 1; d >= 0; --d) {
      offset += space.strides[d];
      if (++index[d] < space.sizes[d])
        break;
      offset -= index[d] * space.strides[d];
      index[d] = 0;
    }
  }
}

template <class T>
void reduce_typed(backend::ReduceOp op, const TensorArg &out, const TensorArg &in,
                  std::uint32_t reduced_dims) {
  const ReducedSpace space = reduced_space(in, reduced_dims);
  const T *x = static_cast<const T *>(in.data);
  // Walk the outputs; the input operand here has the output's sizes and the
  // input's strides, so its offset is the start of each reduced block.
  TensorArg in_base = in;
  for (int d = 0; d < in.dim; ++d)
    in_base.sizes[d] = out.sizes[d];
  const std::int64_t grain =
      std::max<std::int64_t>(1, kParallelGrain / std::max<std::int64_t>(1, space.count));
  parallel_for(0, numel_of(out), grain, [&](std::int64_t begin, std::int64_t end) {
    strided_range<2>(out, {&out, &in_base}, begin, end,
                     [&](const auto &off, std::int64_t n, const auto &st) {
                       for (std::int64_t i = 0; i < n; ++i) {
                         // An empty reduced extent reads nothing (and `in` may have no memory).
                         const T *block = space.count == 0 ? nullptr : x + off[1] + i * st[1];
                         const std::int64_t out_offset = off[0] + i * st[0];
                         switch (op) {
                         case backend::ReduceOp::Sum:
                         case backend::ReduceOp::Mean: {
                           T acc = functors::SumReduce::identity<T>();
                           for_each_reduced(space, [&](std::int64_t o) {
                             acc = functors::SumReduce::combine(acc, block[o]);
                           });
                           if constexpr (std::is_floating_point_v<T>) {
                             if (op == backend::ReduceOp::Mean)
                               acc = space.count == 0 ? std::numeric_limits<T>::quiet_NaN()
                                                      : acc / static_cast<T>(space.count);
                           }
                           static_cast<T *>(out.data)[out_offset] = acc;
                           break;
                         }
                         case backend::ReduceOp::Max: {
                           T acc = block[0];
                           for_each_reduced(space, [&](std::int64_t o) {
                             acc = functors::MaxReduce::combine(acc, block[o]);
                           });
                           static_cast<T *>(out.data)[out_offset] = acc;
                           break;
                         }
                         case backend::ReduceOp::ArgMax: {
                           functors::ArgMaxReduce::State<T> state{block[0], 0};
                           std::int64_t position = 0;
                           for_each_reduced(space, [&](std::int64_t o) {
                             state = functors::ArgMaxReduce::combine(state, block[o], position++);
                           });
                           static_cast<std::int64_t *>(out.data)[out_offset] = state.index;
                           break;
                         }
                         }
                       }
                     });
  });
}

// The BLAS routine per element type.
template <class T> struct Cblas;
template <> struct Cblas<float> {
  static constexpr auto gemm = cblas_sgemm;
};
template <> struct Cblas<double> {
  static constexpr auto gemm = cblas_dgemm;
};

// One row-major BLAS gemm per batch entry; an empty inner dimension gives zeros.
template <class T> void gemm_batches(const backend::GemmArgs &args) {
  const auto elements = static_cast<std::size_t>(args.m * args.n);
  const auto transpose_a = args.trans_a ? CblasTrans : CblasNoTrans;
  const auto transpose_b = args.trans_b ? CblasTrans : CblasNoTrans;
  for (std::int64_t batch = 0; batch < args.batch; ++batch) {
    T *c = static_cast<T *>(args.c) + batch * args.batch_stride_c;
    if (args.k == 0) {
      std::fill(c, c + elements, T(0));
      continue;
    }
    Cblas<T>::gemm(CblasRowMajor, transpose_a, transpose_b, static_cast<int>(args.m),
                   static_cast<int>(args.n), static_cast<int>(args.k), T(1),
                   static_cast<const T *>(args.a) + batch * args.batch_stride_a,
                   static_cast<int>(args.lda),
                   static_cast<const T *>(args.b) + batch * args.batch_stride_b,
                   static_cast<int>(args.ldb), T(0), c, static_cast<int>(args.ldc));
  }
}

} // namespace

void fill(const TensorArg &out, backend::ScalarArg value) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T v = scalar_as<T>(value);
    T *o = static_cast<T *>(out.data);
    strided_for_each<1>(out, {&out}, [&](const auto &off, std::int64_t n, const auto &st) {
      for (std::int64_t i = 0; i < n; ++i)
        o[off[0] + i * st[0]] = v;
    });
  });
}

void copy(const TensorArg &out, const TensorArg &in) {
  if (out.dtype == in.dtype && is_contiguous(out) && is_contiguous(in)) {
    std::memcpy(out.data, in.data,
                static_cast<std::size_t>(numel_of(out)) * element_size(out.dtype));
    return;
  }
  backend::visit_dtype(out.dtype, [&](auto out_tag) {
    using To = decltype(out_tag);
    backend::visit_dtype(in.dtype, [&](auto in_tag) {
      using From = decltype(in_tag);
      To *o = static_cast<To *>(out.data);
      const From *x = static_cast<const From *>(in.data);
      strided_for_each<2>(out, {&out, &in}, [&](const auto &off, std::int64_t n, const auto &st) {
        for (std::int64_t i = 0; i < n; ++i)
          o[off[0] + i * st[0]] = functors::cast<To>(x[off[1] + i * st[1]]);
      });
    });
  });
}

void unary(backend::UnaryOp op, const TensorArg &out, const TensorArg &in) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_unary_op<T>(op,
                               [&](auto functor) { unary_typed<decltype(functor), T>(out, in); });
  });
}

void binary(backend::BinaryOp op, const TensorArg &out, const TensorArg &a, const TensorArg &b) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_binary_op<T>(
        op, [&](auto functor) { binary_typed<decltype(functor), T>(out, a, b); });
  });
}

void binary_scalar(backend::BinaryOp op, const TensorArg &out, const TensorArg &a,
                   backend::ScalarArg s, bool scalar_is_lhs) {
  backend::visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    backend::visit_binary_op<T>(op, [&](auto functor) {
      binary_scalar_typed<decltype(functor), T>(out, a, scalar_as<T>(s), scalar_is_lhs);
    });
  });
}

void reduce(backend::ReduceOp op, const TensorArg &out, const TensorArg &in,
            std::uint32_t reduced_dims) {
  backend::visit_dtype(in.dtype, [&](auto tag) {
    using T = decltype(tag);
    reduce_typed<T>(op, out, in, reduced_dims);
  });
}

void gemm(const backend::GemmArgs &args) {
  if (args.dtype == ScalarType::Float) {
    gemm_batches<float>(args);
  } else {
    PL_ASSERT(args.dtype == ScalarType::Double);
    gemm_batches<double>(args);
  }
}

} // namespace pl::host
