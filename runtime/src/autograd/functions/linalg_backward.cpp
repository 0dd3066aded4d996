// Backward formulas of matmul/mm and linear.
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"

namespace pl::autograd {
namespace {

// a @ b with numpy's rules: a 1-D operand is a matrix of one row (a) or one
// column (b), batch dims broadcast (the engine sums them back).
struct MatmulBackward final : Node {
  const char *name() const override { return "MatmulBackward"; }
  variable_list apply(variable_list &&grads) override {
    const Tensor a = self.unpack(name());
    const Tensor b = other.unpack(name());
    const bool a_vector = a.dim() == 1;
    const bool b_vector = b.dim() == 1;
    const Tensor lhs = a_vector ? a.unsqueeze(0) : a;
    const Tensor rhs = b_vector ? b.unsqueeze(-1) : b;
    Tensor grad = grads[0];
    if (a_vector)
      grad = grad.unsqueeze(b_vector ? 0 : -2);
    if (b_vector)
      grad = grad.unsqueeze(-1);
    Tensor grad_a, grad_b;
    if (next_edges[0].is_valid()) {
      grad_a = grad.matmul(rhs.transpose(-1, -2));
      if (a_vector)
        grad_a = grad_a.squeeze(-2);
    }
    if (next_edges[1].is_valid()) {
      grad_b = lhs.transpose(-1, -2).matmul(grad);
      if (b_vector)
        grad_b = grad_b.squeeze(-1);
    }
    return {grad_a, grad_b};
  }
  void release_saved() override {
    self.release();
    other.release();
  }
  SavedTensor self, other;
};

// input @ weight^T + bias, over any leading dims of input.
struct LinearBackward final : Node {
  const char *name() const override { return "LinearBackward"; }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    const Tensor x = input.unpack(name());
    const Tensor w = weight.unpack(name());
    const Tensor rows = grad.reshape({-1, w.size(0)});
    Tensor grad_input, grad_weight, grad_bias;
    if (next_edges[0].is_valid())
      grad_input = grad.matmul(w);
    if (next_edges[1].is_valid())
      grad_weight = rows.t().mm(x.reshape({-1, w.size(1)}));
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

void record_matmul(const Tensor &out, const Tensor &self, const Tensor &other) {
  if (!should_record({&self, &other}))
    return;
  auto node = std::make_shared<MatmulBackward>();
  connect(*node, {&self, &other});
  node->self = SavedTensor(self);
  node->other = SavedTensor(other);
  set_history(out, node);
}

void record_linear(const Tensor &out, const Tensor &input, const Tensor &weight,
                   const Tensor &bias) {
  if (!should_record({&input, &weight, &bias}))
    return;
  auto node = std::make_shared<LinearBackward>();
  connect(*node, {&input, &weight, &bias});
  node->input = SavedTensor(input);
  node->weight = SavedTensor(weight);
  set_history(out, node);
}

} // namespace pl::autograd
