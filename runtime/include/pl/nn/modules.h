// The built-in modules: Linear, ReLU and Sequential, with their holders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <pl/nn/module.h>
#include <pl/nn/pimpl.h>
#include <pl/tensor.h>

namespace pl::nn {

class LinearOptions {
public:
  LinearOptions(std::int64_t in_features, std::int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  std::int64_t in_features() const noexcept { return in_features_; }
  std::int64_t out_features() const noexcept { return out_features_; }
  bool bias() const noexcept { return bias_; }
  LinearOptions &bias(bool enabled) noexcept {
    bias_ = enabled;
    return *this;
  }

private:
  std::int64_t in_features_;
  std::int64_t out_features_;
  bool bias_ = true;
};

// y = x W^T + b, with W (out, in) and b (out) drawn uniformly from
// [-1/sqrt(in), 1/sqrt(in)] as in libtorch.
class LinearImpl : public Module {
public:
  LinearImpl(std::int64_t in_features, std::int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions &options);

  // Throws DeviceMismatchError (placement-mixed-device) when the input is
  // not on the device of the parameters.
  Tensor forward(const Tensor &input) const;

  LinearOptions options;
  Tensor weight;
  Tensor bias; // undefined when options.bias() is false
};
PL_MODULE(Linear);

class ReLUImpl : public Module {
public:
  ReLUImpl() : Module("ReLU") {}
  Tensor forward(const Tensor &input) const;
};
PL_MODULE(ReLU);

// Applies its modules in order; each must have Tensor forward(const Tensor&).
class SequentialImpl : public Module {
public:
  SequentialImpl() : Module("Sequential") {}
  template <class... Modules>
    requires(sizeof...(Modules) > 0 &&
             (!std::is_same_v<std::decay_t<Modules>, SequentialImpl> && ...))
  explicit SequentialImpl(Modules &&...modules) : Module("Sequential") {
    (push_back(std::forward<Modules>(modules)), ...);
  }

  // A holder (Linear(2, 3)) or a shared_ptr to a module.
  template <class M> void push_back(M &&module) {
    push_back(std::to_string(entries_.size()), std::forward<M>(module));
  }
  template <class M> void push_back(std::string name, M &&module) {
    auto pointer = shared_module(std::forward<M>(module));
    register_module(std::move(name), pointer);
    entries_.push_back(
        Entry{pointer, [pointer](const Tensor &input) { return pointer->forward(input); }});
  }

  Tensor forward(const Tensor &input) const;
  std::size_t size() const noexcept { return entries_.size(); }
  bool is_empty() const noexcept { return entries_.empty(); }
  // Throws IndexError when out of range.
  std::shared_ptr<Module> ptr(std::size_t index) const;

private:
  struct Entry {
    std::shared_ptr<Module> module;
    std::function<Tensor(const Tensor &)> forward;
  };

  template <class M> static auto shared_module(M &&module) {
    using Plain = std::decay_t<M>;
    if constexpr (requires { typename Plain::ContainedType; })
      return module.ptr();
    else
      return std::shared_ptr<typename Plain::element_type>(std::forward<M>(module));
  }

  std::vector<Entry> entries_;
};
PL_MODULE(Sequential);

} // namespace pl::nn
