// The few libtorch declarations the module transforms write (a module, its
// holder, ModuleList, ModuleDict), for the lit test: the real
// <torch/torch.h> takes about 20 s a parse. Declared as libtorch declares them.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace at {
class Tensor {
public:
  Tensor operator+(const Tensor &other) const;
};
} // namespace at

namespace torch {
using at::Tensor;
namespace nn {

class Module {
public:
  virtual ~Module() = default;
};

template <typename Contained> class ModuleHolder {
public:
  ModuleHolder() : impl_(std::make_shared<Contained>()) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  Contained *operator->() const { return impl_.get(); }
  Contained &operator*() const { return *impl_; }
  const std::shared_ptr<Contained> &ptr() const { return impl_; }
  template <typename... Args> auto operator()(Args &&...args) {
    return impl_->forward(std::forward<Args>(args)...);
  }

private:
  std::shared_ptr<Contained> impl_;
};

class ModuleListImpl : public Module {
public:
  void push_back(std::shared_ptr<Module> module);
  template <typename T> T &at(std::size_t index);
};
class ModuleList : public ModuleHolder<ModuleListImpl> {
public:
  using ModuleHolder<ModuleListImpl>::ModuleHolder;
};

class ModuleDictImpl : public Module {
public:
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>> &modules);
  template <typename T> T &at(const std::string &key);
};
class ModuleDict : public ModuleHolder<ModuleDictImpl> {
public:
  using ModuleHolder<ModuleDictImpl>::ModuleHolder;
};

} // namespace nn
} // namespace torch
