// Optimizer: the base of pl::optim's optimizers, libtorch-shaped (one
// parameter group). Updates run under NoGradGuard; state (momentum, Adam's
// moments) is made lazily on each parameter's device, and step() checks
// that every gradient and state tensor is on its parameter's device
// (placement-mixed-device, naming the parameter's index).
#pragma once

#include <cstddef>
#include <functional>
#include <source_location>
#include <string>
#include <vector>

#include <pl/tensor.h>

// An option with a getter and a chaining setter, as libtorch's TORCH_ARG:
// SGDOptions(0.1).momentum(0.9).
#define PL_OPTIM_ARG(T, name, initial)                                                             \
public:                                                                                            \
  auto name(const T &new_##name) -> decltype(*this) {                                              \
    name##_ = new_##name;                                                                          \
    return *this;                                                                                  \
  }                                                                                                \
  const T &name() const noexcept { return name##_; }                                               \
                                                                                                   \
private:                                                                                           \
  T name##_ = initial

namespace pl::optim {

using LossClosure = std::function<Tensor()>;

class Optimizer {
public:
  using SourceLocation = std::source_location;

  virtual ~Optimizer() = default;
  Optimizer(const Optimizer &) = delete;
  Optimizer &operator=(const Optimizer &) = delete;

  // One update of every parameter that has a gradient. With a closure, it
  // is called first (with grad mode on) and its loss returned.
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  // Resets every parameter's gradient: undefined (set_to_none), or zeros.
  void zero_grad(bool set_to_none = true);
  const std::vector<Tensor> &parameters() const noexcept { return parameters_; }
  std::size_t size() const noexcept { return parameters_.size(); }

protected:
  // Rejects undefined parameters; a non-leaf made by moving a requires-grad
  // leaf is placement-non-leaf-parameter (reported by the transfer guard,
  // naming the move; `loc` is where the optimizer was made).
  Optimizer(std::string name, std::vector<Tensor> parameters, SourceLocation loc);

  // Throws DeviceMismatchError (placement-mixed-device) unless `tensor`
  // (what names it, e.g. "grad") is on parameters()[index]'s device.
  void check_on_parameter_device(std::size_t index, const char *what, const Tensor &tensor) const;
  // Runs the closure, if any, with grad mode on.
  static Tensor evaluate(const LossClosure &closure);
  const std::string &name() const noexcept { return name_; }

private:
  std::string name_;
  std::vector<Tensor> parameters_;
};

} // namespace pl::optim
