// Backward formulas of sum, mean and max: the gradient of the kept
// elements spread back over the reduced dims.
#include <pl/factories.h>
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/internal.h"

namespace pl::autograd {
namespace {

// The result's sizes with every reduced dim kept as 1.
std::vector<std::int64_t> kept_sizes(const Tensor &self, IntArrayRef dims) {
  std::vector<std::int64_t> sizes = self.sizes().vec();
  const auto ndim = static_cast<std::int64_t>(sizes.size());
  if (dims.empty()) {
    std::fill(sizes.begin(), sizes.end(), 1);
    return sizes;
  }
  for (std::int64_t dim : dims)
    if (ndim > 0)
      sizes[static_cast<std::size_t>(detail::wrap_dim("sum", dim, ndim))] = 1;
  return sizes;
}

// grad (of the reduced sizes) repeated over the input's sizes.
Tensor spread(const Tensor &grad, const std::vector<std::int64_t> &kept,
              const std::vector<std::int64_t> &input_sizes) {
  return grad.reshape(kept) + pl::zeros(input_sizes, grad.options());
}

// sum (divisor 1) and mean (divisor: the number of elements reduced).
struct SumBackward final : Node {
  SumBackward(const char *kind, std::vector<std::int64_t> input_sizes,
              std::vector<std::int64_t> kept, double divisor)
      : kind(kind), input_sizes(std::move(input_sizes)), kept(std::move(kept)), divisor(divisor) {}
  const char *name() const override { return kind; }
  variable_list apply(variable_list &&grads) override {
    const Tensor spread_grad = spread(grads[0], kept, input_sizes);
    return {divisor == 1.0 ? spread_grad : spread_grad / divisor};
  }
  const char *kind;
  std::vector<std::int64_t> input_sizes, kept;
  double divisor;
};

// The gradient goes to the elements equal to the maximum, split evenly
// between ties (as PyTorch's max() does; its max(dim) picks one).
struct MaxBackward final : Node {
  const char *name() const override { return "MaxBackward"; }
  variable_list apply(variable_list &&grads) override {
    const Tensor input = self.unpack(name());
    const Tensor maximum = values.unpack(name()).reshape(kept);
    const Tensor is_max = rsub(positive_mask(maximum - input), 1.0);
    const Tensor ties = is_max.sum(reduced_dims, true);
    return {grads[0].reshape(kept) * is_max / ties};
  }
  void release_saved() override {
    self.release();
    values.release();
  }
  std::vector<std::int64_t> kept, reduced_dims;
  SavedTensor self, values;
};

void record_sum_like(const char *kind, const Tensor &out, const Tensor &self, IntArrayRef dims,
                     bool mean) {
  if (!should_record({&self}))
    return;
  const std::vector<std::int64_t> kept = kept_sizes(self, dims);
  const double divisor =
      mean ? static_cast<double>(self.numel()) / static_cast<double>(out.numel()) : 1.0;
  auto node = std::make_shared<SumBackward>(kind, self.sizes().vec(), kept, divisor);
  connect(*node, {&self});
  set_history(out, node);
}

} // namespace

void record_sum(const Tensor &out, const Tensor &self, IntArrayRef dims) {
  record_sum_like("SumBackward", out, self, dims, false);
}

void record_mean(const Tensor &out, const Tensor &self, IntArrayRef dims) {
  record_sum_like("MeanBackward", out, self, dims, true);
}

void record_max(const Tensor &values, const Tensor &self, std::optional<std::int64_t> dim) {
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<MaxBackward>();
  connect(*node, {&self});
  const auto ndim = static_cast<std::int64_t>(self.dim());
  if (dim.has_value() && ndim > 0) {
    node->reduced_dims = {detail::wrap_dim("max", *dim, ndim)};
  } else {
    for (std::int64_t d = 0; d < ndim; ++d)
      node->reduced_dims.push_back(d);
  }
  node->kept = kept_sizes(self, node->reduced_dims);
  node->self = SavedTensor(self);
  node->values = SavedTensor(values);
  set_history(values, node);
}

} // namespace pl::autograd
