// Reverse-mode autograd, libtorch-shaped: grad mode (NoGradGuard) and
// autograd::grad / autograd::backward. The per-tensor API (requires_grad,
// backward, grad, detach, retain_grad) is on pl::Tensor; docs/autograd.md
// says which ops are covered and what is not.
#pragma once

#include <optional>
#include <vector>

#include <pl/tensor.h>

namespace pl {

using variable_list = std::vector<Tensor>;

// Whether ops record their history for backward, per thread (on by default).
class GradMode {
public:
  static bool is_enabled() noexcept;
  static void set_enabled(bool enabled) noexcept;
};

// Sets grad mode for the current thread until destroyed; guards nest.
class AutoGradMode {
public:
  explicit AutoGradMode(bool enabled) : previous_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode &) = delete;
  AutoGradMode &operator=(const AutoGradMode &) = delete;

private:
  bool previous_;
};

// Ops inside its scope record nothing (optimizer updates, evaluation).
class NoGradGuard : public AutoGradMode {
public:
  NoGradGuard() : AutoGradMode(false) {}
};

namespace autograd {

// Like torch::autograd::backward: tensors[i].backward(grad_tensors[i]) in one
// pass over the graph.
void backward(const variable_list &tensors, const variable_list &grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false);

// Like torch::autograd::grad: the gradients of `outputs` with respect to
// `inputs`, returned rather than accumulated into grad(). An input the
// outputs do not depend on is an error unless allow_unused (then its
// gradient is undefined).
variable_list grad(const variable_list &outputs, const variable_list &inputs,
                   const variable_list &grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                   bool allow_unused = false);

} // namespace autograd
} // namespace pl
