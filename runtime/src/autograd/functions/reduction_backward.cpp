// Backward formulas of sum, mean and max: the gradient of the kept
// elements spread back over the reduced dims.
#include <pl/factories.h>
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/internal.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

// The result's sizes with every reduced dim kept as 1.
std::vector<std::int64_t> kept_sizes(const char *op, const Tensor &self, IntArrayRef dims) {
  std::vector<std::int64_t> sizes = self.sizes().vec();
  const auto ndim = static_cast<std::int64_t>(sizes.size());
  if (dims.empty()) {
    std::fill(sizes.begin(), sizes.end(), 1);
    return sizes;
  }
  for (std::int64_t dim : dims)
    if (ndim > 0)
      sizes[static_cast<std::size_t>(detail::wrap_dim(op, dim, ndim))] = 1;
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

// max(): the gradient goes to the elements equal to the maximum, split
// evenly between ties (as PyTorch's evenly_distribute_backward; an
// infinite maximum is equal to itself, a NaN one picks the NaNs).
struct MaxBackward final : Node {
  const char *name() const override { return ops::backward_name(ops::OpId::Max); }
  variable_list apply(variable_list &&grads) override {
    const Tensor input = self.unpack(name());
    const Tensor is_max = detail::equal_mask(input, value.unpack(name()));
    return {grads[0] * is_max / is_max.sum()};
  }
  void release_saved() override {
    self.release();
    value.release();
  }
  SavedTensor self, value;
};

// The values of max(dim): the gradient goes to the one element the forward's
// index names along dim (as PyTorch's value_selecting_reduction_backward).
struct MaxDimBackward final : Node {
  const char *name() const override { return ops::backward_name(ops::OpId::Max); }
  variable_list apply(variable_list &&grads) override {
    if (input_sizes.empty())
      return {grads[0]}; // max(0) of a 0-dim tensor is the tensor
    const Tensor index = indices.unpack(name()).reshape(kept);
    std::vector<std::int64_t> along(input_sizes.size(), 1);
    along[static_cast<std::size_t>(dim)] = input_sizes[static_cast<std::size_t>(dim)];
    const Tensor positions =
        pl::arange(along[static_cast<std::size_t>(dim)], pl::device(index.device()).dtype(kLong))
            .reshape(along);
    return {grads[0].reshape(kept) * detail::equal_mask(positions, index)};
  }
  void release_saved() override { indices.release(); }
  std::vector<std::int64_t> input_sizes, kept;
  std::int64_t dim = 0;
  SavedTensor indices;
};

// max(dim): the values get the node (the indices have no gradient).
void record_max_dim(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  auto node = std::make_shared<MaxDimBackward>();
  connect(*node, {&self});
  const auto ndim = static_cast<std::int64_t>(self.dim());
  node->input_sizes = self.sizes().vec();
  if (ndim > 0) {
    node->dim = detail::wrap_dim("max", call.ints[0], ndim);
    node->kept = kept_sizes("max", self, {node->dim});
  }
  node->indices = SavedTensor(call.outputs[1]);
  set_history(call.outputs[0], node);
}

} // namespace

// sum, and mean (the gradient divided by the number of elements reduced).
void record_sum(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  const Tensor &out = call.outputs[0];
  if (!should_record({&self}))
    return;
  const std::vector<std::int64_t> kept = kept_sizes(ops::names(call.op).name, self, call.ints);
  const double divisor = call.op == ops::OpId::Mean
                             ? static_cast<double>(self.numel()) / static_cast<double>(out.numel())
                             : 1.0;
  auto node = std::make_shared<SumBackward>(ops::backward_name(call.op), self.sizes().vec(), kept,
                                            divisor);
  connect(*node, {&self});
  set_history(out, node);
}

// max(), or max(dim) when it has two outputs.
void record_max(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  if (!should_record({&self}))
    return;
  if (call.outputs.size() == 2) {
    record_max_dim(call);
    return;
  }
  const Tensor &value = call.outputs[0];
  auto node = std::make_shared<MaxBackward>();
  connect(*node, {&self});
  node->self = SavedTensor(self);
  node->value = SavedTensor(value);
  set_history(value, node);
}

} // namespace pl::autograd
