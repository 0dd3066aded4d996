// ModuleHolder: the shared_ptr wrapper libtorch puts around a module
// implementation (`pl::nn::Linear` holds a `LinearImpl`), and PL_MODULE,
// which declares such a holder (libtorch's TORCH_MODULE).
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include <pl/error.h>

namespace pl::nn {

template <class Contained> class ModuleHolder {
public:
  using ContainedType = Contained;

  // Default-constructs the module when it can be (pl::nn::ReLU relu;).
  ModuleHolder()
    requires std::is_default_constructible_v<Contained>
      : impl_(std::make_shared<Contained>()) {}
  // An empty holder, to be assigned later.
  /* implicit */ ModuleHolder(std::nullptr_t) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  // Forwards to the module's constructor: Linear lin(4, 3).
  template <class Head, class... Tail>
    requires(!std::is_base_of_v<ModuleHolder, std::decay_t<Head>> &&
             !std::is_same_v<std::decay_t<Head>, std::nullptr_t> &&
             !std::is_same_v<std::decay_t<Head>, std::shared_ptr<Contained>> &&
             std::is_constructible_v<Contained, Head &&, Tail &&...>)
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  bool is_empty() const noexcept { return impl_ == nullptr; }

  Contained *operator->() const { return get(); }
  Contained &operator*() const { return *get(); }
  Contained *get() const {
    PL_CHECK(impl_ != nullptr, Error, "accessing an empty ModuleHolder (constructed from nullptr)");
    return impl_.get();
  }
  const std::shared_ptr<Contained> &ptr() const {
    PL_CHECK(impl_ != nullptr, Error, "accessing an empty ModuleHolder (constructed from nullptr)");
    return impl_;
  }

  // holder(x) calls the module's forward(x).
  template <class... Args> decltype(auto) operator()(Args &&...args) const {
    return get()->forward(std::forward<Args>(args)...);
  }

protected:
  std::shared_ptr<Contained> impl_;
};

} // namespace pl::nn

// PL_MODULE(Linear) declares pl::nn-style holder `Linear` over `LinearImpl`.
#define PL_MODULE(Name)                                                                            \
  class Name : public ::pl::nn::ModuleHolder<Name##Impl> {                                         \
  public:                                                                                          \
    using ::pl::nn::ModuleHolder<Name##Impl>::ModuleHolder;                                        \
    using Impl = Name##Impl;                                                                       \
  }
