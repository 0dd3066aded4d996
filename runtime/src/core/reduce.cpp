// Reductions: sum, mean, max, argmax, over all dims or a list of dims.
#include "core/autograd_hooks.h"
#include "core/internal.h"

namespace pl {
namespace {

using backend::ReduceOp;

struct ReductionPlan {
  std::uint32_t mask = 0;
  std::vector<std::int64_t> kept_sizes;  // reduced dims as 1
  std::vector<std::int64_t> final_sizes; // without reduced dims unless keepdim
  std::int64_t reduced_count = 1;
};

ReductionPlan plan_reduction(std::string_view op, const TensorImpl &impl, IntArrayRef dims,
                             bool keepdim) {
  const auto ndim = static_cast<std::int64_t>(impl.sizes.size());
  ReductionPlan plan;
  if (dims.empty()) {
    plan.mask = ndim == 0 ? 0u : (1u << ndim) - 1u;
  } else {
    for (std::int64_t dim : dims) {
      const std::int64_t wrapped = detail::wrap_dim(op, dim, ndim);
      if (ndim == 0)
        continue;
      PL_CHECK(!((plan.mask >> wrapped) & 1u), IndexError, op, ": dim ", wrapped,
               " appears multiple times in the list of dims");
      plan.mask |= 1u << wrapped;
    }
  }
  for (std::int64_t d = 0; d < ndim; ++d) {
    const std::int64_t size = impl.sizes[static_cast<std::size_t>(d)];
    const bool reduced = (plan.mask >> d) & 1u;
    plan.kept_sizes.push_back(reduced ? 1 : size);
    if (reduced)
      plan.reduced_count *= size;
    if (!reduced || keepdim)
      plan.final_sizes.push_back(reduced ? 1 : size);
  }
  return plan;
}

Tensor run_reduction(ReduceOp op, const Tensor &input, const ReductionPlan &plan,
                     ScalarType out_dtype) {
  const TensorImpl &impl = *input.impl();
  Tensor out = detail::make_tensor(plan.kept_sizes, out_dtype, impl.device);
  if (out.numel() > 0)
    detail::backend_of(impl.device)
        .reduce(impl.device.index(), op, detail::kernel_arg(out), detail::kernel_arg(impl),
                plan.mask);
  return out.view(plan.final_sizes);
}

// The one reduced dim of max(dim)/argmax(dim), on a tensor of at least one dim.
Tensor reduce_one_dim(std::string_view op, ReduceOp kind, const Tensor &self, std::int64_t dim,
                      bool keepdim, ScalarType out_dtype) {
  const TensorImpl &impl = *self.impl();
  if (impl.sizes.empty()) {
    detail::wrap_dim(op, dim, 0);
    const Tensor value = reduce_one_dim(op, kind, self.reshape({1}), 0, false, out_dtype);
    return value.reshape({});
  }
  const ReductionPlan plan = plan_reduction(op, impl, dim, keepdim);
  PL_CHECK(plan.reduced_count > 0, ShapeError, op, ": expected reduction dim ",
           detail::wrap_dim(op, dim, static_cast<std::int64_t>(impl.sizes.size())),
           " to have non-zero size");
  return run_reduction(kind, self, plan, out_dtype);
}

} // namespace

Tensor Tensor::sum(IntArrayRef dims, bool keepdim) const {
  const char *op = ops::name(ops::OpId::Sum);
  const TensorImpl &impl = impl_ref();
  const ScalarType dtype = is_floating_type(impl.dtype) ? impl.dtype : ScalarType::Long;
  const ReductionPlan plan = plan_reduction(op, impl, dims, keepdim);
  Tensor out = run_reduction(ReduceOp::Sum, detail::cast(*this, dtype), plan, dtype);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Sum, .inputs = *this, .outputs = out, .ints = dims});
  return out;
}

Tensor Tensor::mean(IntArrayRef dims, bool keepdim) const {
  const char *op = ops::name(ops::OpId::Mean);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(is_floating_type(impl.dtype), DTypeError,
           op, ": could not infer output dtype; the input dtype must be Float or Double, but got ",
           impl.dtype);
  const ReductionPlan plan = plan_reduction(op, impl, dims, keepdim);
  Tensor out = run_reduction(ReduceOp::Mean, *this, plan, impl.dtype);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Mean, .inputs = *this, .outputs = out, .ints = dims});
  return out;
}

Tensor Tensor::max() const {
  const char *op = ops::name(ops::OpId::Max);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(impl.numel > 0, ShapeError,
           op, ": expected a non-empty tensor; specify the reduction dim with ", op,
           "(dim)");
  const ReductionPlan plan = plan_reduction(op, impl, {}, false);
  Tensor out = run_reduction(ReduceOp::Max, *this, plan, impl.dtype);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Max, .inputs = *this, .outputs = out});
  return out;
}

std::tuple<Tensor, Tensor> Tensor::max(std::int64_t dim, bool keepdim) const {
  const char *op = ops::name(ops::OpId::Max);
  const TensorImpl &impl = impl_ref();
  Tensor values = reduce_one_dim(op, ReduceOp::Max, *this, dim, keepdim, impl.dtype);
  Tensor indices = reduce_one_dim(op, ReduceOp::ArgMax, *this, dim, keepdim, ScalarType::Long);
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::Max, .inputs = *this, .outputs = {values, indices}, .ints = dim});
  return {std::move(values), std::move(indices)};
}

Tensor Tensor::argmax(std::optional<std::int64_t> dim, bool keepdim) const {
  const char *op = ops::name(ops::OpId::ArgMax);
  const TensorImpl &impl = impl_ref();
  if (dim)
    return reduce_one_dim(op, ReduceOp::ArgMax, *this, *dim, keepdim, ScalarType::Long);
  PL_CHECK(impl.numel > 0, ShapeError,
           op, ": expected a non-empty tensor; specify the reduction dim with ", op,
           "(dim)");
  // Over all elements: the index into the flattened tensor.
  Tensor index =
      reduce_one_dim(op, ReduceOp::ArgMax, reshape({-1}), 0, false, ScalarType::Long);
  if (!keepdim)
    return index;
  return index.reshape(std::vector<std::int64_t>(impl.sizes.size(), 1));
}

} // namespace pl
