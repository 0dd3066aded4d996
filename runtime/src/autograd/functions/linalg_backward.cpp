// Backward formulas of matmul/mm and linear.
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

// a @ b with numpy's rules: a 1-D operand is a matrix of one row (a) or one
// column (b), batch dims broadcast (the engine sums them back). Each
// operand is saved only for the other's gradient.
struct MatmulBackward final : Node {
  const char *name() const override { return ops::backward_name(ops::OpId::Matmul); }
  variable_list apply(variable_list &&grads) override {
    Tensor grad = grads[0];
    if (self_is_vector)
      grad = grad.unsqueeze(other_is_vector ? 0 : -2);
    if (other_is_vector)
      grad = grad.unsqueeze(-1);
    Tensor grad_a, grad_b;
    if (next_edges[0].is_valid()) {
      const Tensor b = other.unpack(name());
      grad_a = grad.matmul((other_is_vector ? b.unsqueeze(-1) : b).transpose(-1, -2));
      if (self_is_vector)
        grad_a = grad_a.squeeze(-2);
    }
    if (next_edges[1].is_valid()) {
      const Tensor a = self.unpack(name());
      grad_b = (self_is_vector ? a.unsqueeze(0) : a).transpose(-1, -2).matmul(grad);
      if (other_is_vector)
        grad_b = grad_b.squeeze(-1);
    }
    return {grad_a, grad_b};
  }
  void release_saved() override {
    self.release();
    other.release();
  }
  bool self_is_vector = false, other_is_vector = false;
  SavedTensor self, other;
};

// input @ weight^T + bias, over any leading dims of input. Input and weight
// are each saved only for the other's gradient.
struct LinearBackward final : Node {
  const char *name() const override { return ops::backward_name(ops::OpId::Linear); }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    const Tensor rows = grad.reshape({-1, grad.size(-1)});
    Tensor grad_input, grad_weight, grad_bias;
    if (next_edges[0].is_valid())
      grad_input = grad.matmul(weight.unpack(name()));
    if (next_edges[1].is_valid()) {
      const Tensor x = input.unpack(name());
      grad_weight = rows.t().mm(x.reshape({-1, x.size(-1)}));
    }
    if (next_edges[2].is_valid())
      grad_bias = rows.sum({0});
    return {grad_input, grad_weight, grad_bias};
  }
  void release_saved() override {
    input.release();
    weight.release();
  }
  SavedTensor input, weight;
};

} // namespace

void record_matmul(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  const Tensor &other = call.inputs[1];
  if (!should_record({&self, &other}))
    return;
  auto node = std::make_shared<MatmulBackward>();
  connect(*node, {&self, &other});
  node->self_is_vector = self.dim() == 1;
  node->other_is_vector = other.dim() == 1;
  if (other.requires_grad())
    node->self = SavedTensor(self);
  if (self.requires_grad())
    node->other = SavedTensor(other);
  set_history(call.outputs[0], node);
}

void record_linear(const OpCall &call) {
  const Tensor &input = call.inputs[0];
  const Tensor &weight = call.inputs[1];
  const Tensor &bias = call.inputs[2];
  if (!should_record({&input, &weight, &bias}))
    return;
  auto node = std::make_shared<LinearBackward>();
  connect(*node, {&input, &weight, &bias});
  if (weight.requires_grad())
    node->input = SavedTensor(input);
  if (input.requires_grad())
    node->weight = SavedTensor(weight);
  set_history(call.outputs[0], node);
}

} // namespace pl::autograd
