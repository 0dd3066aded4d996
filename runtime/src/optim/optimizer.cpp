#include <pl/autograd.h>
#include <pl/optim/optimizer.h>

#include "autograd/graph.h"
#include "core/internal.h"

namespace pl::optim {

Optimizer::Optimizer(std::string name, std::vector<Tensor> parameters, SourceLocation loc)
    : name_(std::move(name)), parameters_(std::move(parameters)) {
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const Tensor &parameter = parameters_[i];
    PL_CHECK(parameter.defined(), Error, name_, ": parameters[", i, "] is undefined");
    const autograd::AutogradMeta *meta = parameter.impl()->autograd_meta.get();
    if (meta != nullptr && meta->moved_at.has_value() && !parameter.is_leaf())
      pl::detail::guard_non_leaf_parameter(name_, "parameters[" + std::to_string(i) + "]",
                                           meta->moved_from, parameter.device(), *meta->moved_at,
                                           loc);
  }
}

void Optimizer::zero_grad(bool set_to_none) {
  const NoGradGuard no_grad;
  for (const Tensor &parameter : parameters_) {
    if (!parameter.grad().defined())
      continue;
    Tensor &grad = parameter.mutable_grad();
    if (set_to_none)
      grad = Tensor();
    else
      grad.zero_();
  }
}

void Optimizer::check_on_parameter_device(std::size_t index, const char *what,
                                          const Tensor &tensor) const {
  const Device device = parameters_[index].device();
  if (tensor.device() != device) [[unlikely]] {
    const std::string parameter = "parameters[" + std::to_string(index) + "]";
    pl::detail::mixed_device_error(name_ + "::step", parameter, device, parameter + "." + what,
                                   tensor.device());
  }
}

Tensor Optimizer::evaluate(const LossClosure &closure) {
  if (!closure)
    return {};
  const AutoGradMode grad_mode(true);
  return closure();
}

} // namespace pl::optim
