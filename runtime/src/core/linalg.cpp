// matmul, mm and linear, over the backends' gemm.
#include <pl/ops.h>

#include "core/autograd_hooks.h"
#include "core/internal.h"

namespace pl {
namespace {

void check_gemm_dtypes(std::string_view op, std::string_view a_name, const TensorImpl &a,
                       std::string_view b_name, const TensorImpl &b) {
  PL_CHECK(a.dtype == b.dtype, DTypeError, op, ": expected '", a_name, "' and '", b_name,
           "' to have the same dtype, but got ", a.dtype, " and ", b.dtype);
  PL_CHECK(is_floating_type(a.dtype), DTypeError, op, ": supports Float and Double, but got ",
           a.dtype);
}

// How gemm reads the last two dims of a view: as stored (row-major, row
// stride ld) or transposed; nothing when it needs a contiguous copy first.
struct MatrixLayout {
  bool transposed;
  std::int64_t ld;
};

std::optional<MatrixLayout> matrix_layout(const TensorImpl &impl) {
  const std::size_t n = impl.sizes.size();
  const std::int64_t rows = impl.sizes[n - 2];
  const std::int64_t cols = impl.sizes[n - 1];
  const std::int64_t row_stride = impl.strides[n - 2];
  const std::int64_t col_stride = impl.strides[n - 1];
  if (col_stride == 1 && row_stride >= std::max<std::int64_t>(1, cols))
    return MatrixLayout{false, row_stride};
  if (row_stride == 1 && col_stride >= std::max<std::int64_t>(1, rows))
    return MatrixLayout{true, col_stride};
  return std::nullopt;
}

// C (batch..., m, n) = A (batch..., m, k) @ B (batch..., k, n), with A and B
// already on one device, of one floating dtype and with equal batch sizes.
// Batched operands are contiguous.
Tensor gemm(const Tensor &a, const Tensor &b) {
  const TensorImpl &ai = *a.impl();
  const std::size_t n = ai.sizes.size();
  DimVector out_sizes(IntArrayRef(ai.sizes.data(), n - 1));
  out_sizes.push_back(b.impl()->sizes.back());
  Tensor out = detail::make_tensor(out_sizes, ai.dtype, ai.device);
  if (out.numel() == 0)
    return out;
  // An empty inner dimension sums nothing: zeros, as in PyTorch. Operands
  // with no elements have no matrix layout for the backend to read.
  if (ai.sizes[n - 1] == 0) {
    out.zero_();
    return out;
  }
  Tensor lhs = a;
  Tensor rhs = b;
  auto lhs_layout = matrix_layout(*lhs.impl());
  auto rhs_layout = matrix_layout(*rhs.impl());
  if (n > 2 || !lhs_layout) {
    lhs = lhs.contiguous();
    lhs_layout = matrix_layout(*lhs.impl());
  }
  if (n > 2 || !rhs_layout) {
    rhs = rhs.contiguous();
    rhs_layout = matrix_layout(*rhs.impl());
  }
  PL_ASSERT(lhs_layout && rhs_layout);
  backend::GemmArgs args{};
  args.dtype = ai.dtype;
  args.m = ai.sizes[n - 2];
  args.k = ai.sizes[n - 1];
  args.n = out_sizes.back();
  args.batch = out.numel() / (args.m * args.n);
  args.trans_a = lhs_layout->transposed;
  args.trans_b = rhs_layout->transposed;
  args.a = lhs.data_ptr();
  args.lda = lhs_layout->ld;
  args.batch_stride_a = args.m * args.k;
  args.b = rhs.data_ptr();
  args.ldb = rhs_layout->ld;
  args.batch_stride_b = args.k * args.n;
  args.c = out.data_ptr();
  args.ldc = args.n;
  args.batch_stride_c = args.m * args.n;
  detail::backend_of(ai.device).gemm(ai.device.index(), args);
  return out;
}

// A contiguous copy of t with its batch dims broadcast to `batch`.
Tensor expand_batch(const Tensor &t, const DimVector &batch) {
  const TensorImpl &impl = *t.impl();
  DimVector sizes = batch;
  sizes.push_back(impl.sizes[impl.sizes.size() - 2]);
  sizes.push_back(impl.sizes.back());
  if (IntArrayRef(sizes) == impl.sizes)
    return t.contiguous();
  Tensor out = detail::make_tensor(sizes, impl.dtype, impl.device);
  if (out.numel() > 0)
    detail::backend_of(impl.device)
        .copy(impl.device.index(), detail::kernel_arg(out), detail::broadcast_arg(impl, sizes));
  return out;
}

// matmul after its checks: 1-D operands become matrices and back.
Tensor matmul_checked(std::string_view op, const Tensor &self, const Tensor &other) {
  const TensorImpl &a = *self.impl();
  const TensorImpl &b = *other.impl();
  PL_CHECK(!a.sizes.empty() && !b.sizes.empty(), ShapeError, op,
           ": both arguments need to be at least 1D, but they are ", a.sizes.size(), "D and ",
           b.sizes.size(), "D");
  const Tensor lhs = a.sizes.size() == 1 ? self.unsqueeze(0) : self;
  const Tensor rhs = b.sizes.size() == 1 ? other.unsqueeze(1) : other;
  const TensorImpl &l = *lhs.impl();
  const TensorImpl &r = *rhs.impl();
  PL_CHECK(l.sizes.back() == r.sizes[r.sizes.size() - 2], ShapeError, op, ": shapes ", a.sizes,
           " and ", b.sizes, " cannot be multiplied (", l.sizes[l.sizes.size() - 2], "x",
           l.sizes.back(), " and ", r.sizes[r.sizes.size() - 2], "x", r.sizes.back(), ")");
  Tensor result;
  if (l.sizes.size() == 2 && r.sizes.size() == 2) {
    result = gemm(lhs, rhs);
  } else {
    const auto batch = detail::broadcast_sizes(op, IntArrayRef(l.sizes.data(), l.sizes.size() - 2),
                                               IntArrayRef(r.sizes.data(), r.sizes.size() - 2));
    result = gemm(expand_batch(lhs, batch), expand_batch(rhs, batch));
  }
  if (a.sizes.size() == 1)
    result = result.squeeze(-2);
  if (b.sizes.size() == 1)
    result = result.squeeze(-1);
  return result;
}

} // namespace

Tensor Tensor::mm(const Tensor &mat2) const {
  const char *op = ops::name(ops::OpId::Mm);
  detail::common_device(ops::OpId::Mm, {{"self", this}, {"mat2", &mat2}});
  const TensorImpl &a = *impl_;
  const TensorImpl &b = *mat2.impl();
  PL_CHECK(a.sizes.size() == 2 && b.sizes.size() == 2, ShapeError, op,
           ": expected two matrices, but got ", a.sizes.size(), "D and ", b.sizes.size(), "D");
  check_gemm_dtypes(op, "self", a, "mat2", b);
  Tensor out = matmul_checked(op, *this, mat2);
  if (detail::is_tracked(*this, mat2)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Mm, .inputs = {*this, mat2}, .outputs = out});
  return out;
}

Tensor Tensor::matmul(const Tensor &other) const {
  const char *op = ops::name(ops::OpId::Matmul);
  detail::common_device(ops::OpId::Matmul, {{"self", this}, {"other", &other}});
  check_gemm_dtypes(op, "self", *impl_, "other", *other.impl());
  Tensor out = matmul_checked(op, *this, other);
  if (detail::is_tracked(*this, other)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Matmul, .inputs = {*this, other}, .outputs = out});
  return out;
}

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  const char *op = ops::name(ops::OpId::Linear);
  if (bias.defined())
    detail::common_device(ops::OpId::Linear,
                          {{"input", &input}, {"weight", &weight}, {"bias", &bias}});
  else
    detail::common_device(ops::OpId::Linear, {{"input", &input}, {"weight", &weight}});
  const TensorImpl &x = *input.impl();
  const TensorImpl &w = *weight.impl();
  PL_CHECK(w.sizes.size() == 2, ShapeError, op, ": 'weight' must be a matrix, but has sizes ",
           w.sizes);
  PL_CHECK(!x.sizes.empty() && x.sizes.back() == w.sizes[1], ShapeError, op, ": 'input' of sizes ",
           x.sizes, " does not have the ", w.sizes[1], " features 'weight' (sizes ", w.sizes,
           ") expects in its last dimension");
  check_gemm_dtypes(op, "input", x, "weight", w);
  Tensor out = matmul_checked(op, input, weight.t());
  if (bias.defined()) {
    const TensorImpl &b = *bias.impl();
    PL_CHECK(b.sizes.size() == 1 && b.sizes[0] == w.sizes[0], ShapeError, op,
             ": 'bias' must have sizes [", w.sizes[0], "], but has ", b.sizes);
    PL_CHECK(b.dtype == w.dtype, DTypeError, op, ": expected 'bias' of dtype ", w.dtype,
             ", but got ", b.dtype);
    // The bias joins the product inside linear's own node.
    detail::add_in_place_untracked(out, bias);
  }
  if (detail::is_tracked(input, weight) || detail::is_tracked(bias)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Linear, .inputs = {input, weight, bias}, .outputs = out});
  return out;
}

} // namespace pl
