// nn::Module: parameters, buffers and submodules, with in-place to(), as in
// libtorch. Parameters require grad (unless registered otherwise) and stay
// leaves when the module moves.
#pragma once

#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

#include <pl/device.h>
#include <pl/ordered_dict.h>
#include <pl/scalar_type.h>
#include <pl/tensor.h>

namespace pl::nn {

template <class Contained> class ModuleHolder;

class Module : public std::enable_shared_from_this<Module> {
public:
  using SourceLocation = std::source_location;

  Module() = default;
  explicit Module(std::string name) : name_(std::move(name)) {}
  virtual ~Module() = default;
  Module(const Module &) = default;
  Module &operator=(const Module &) = default;

  // The name given at construction, else the demangled class name.
  std::string name() const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  // In place: every parameter and buffer of this module and its submodules
  // moves, and every gradient with its parameter; every handle to them
  // (members such as Linear::weight) sees it, and parameters stay leaves.
  virtual void to(Device device, bool non_blocking = false,
                  SourceLocation loc = SourceLocation::current());
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false,
                  SourceLocation loc = SourceLocation::current());

  // Resets the gradient of every parameter: undefined (set_to_none), or zeros.
  virtual void zero_grad(bool set_to_none = true);

  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const noexcept { return is_training_; }

  // Returns a reference to the stored handle; copy it into a member. The
  // parameter is made to require grad (a floating one, when requires_grad).
  Tensor &register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor &register_buffer(std::string name, Tensor tensor);

  template <class ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              std::shared_ptr<ModuleType> module) {
    static_assert(std::is_base_of_v<Module, ModuleType>, "register_module needs an nn::Module");
    PL_CHECK(module != nullptr, Error, "register_module: submodule '", name, "' is null");
    check_member_name(name, "submodule");
    children_.insert(std::move(name), module);
    return module;
  }
  template <class ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }

private:
  void check_member_name(const std::string &name, const char *what) const;
  void apply_to_tensors(const std::function<Tensor(const Tensor &)> &convert);

  std::string name_;
  bool is_training_ = true;
  OrderedDict<std::string, Tensor> parameters_;
  OrderedDict<std::string, Tensor> buffers_;
  OrderedDict<std::string, std::shared_ptr<Module>> children_;
};

} // namespace pl::nn
