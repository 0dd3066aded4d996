#include <cxxabi.h>

#include <cmath>
#include <cstdlib>

#include <pl/autograd.h>
#include <pl/nn/module.h>

namespace pl::nn {
namespace {

std::string demangle(const char *name) {
  int status = 0;
  char *demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr)
    return name;
  std::string result(demangled);
  std::free(demangled);
  return result;
}

} // namespace

std::string Module::name() const { return name_.empty() ? demangle(typeid(*this).name()) : name_; }

void Module::check_member_name(const std::string &name, const char *what) const {
  PL_CHECK(!name.empty(), Error, "register_", what, ": the name must not be empty");
  PL_CHECK(name.find('.') == std::string::npos, Error, "register_", what, ": the name '", name,
           "' must not contain a dot");
  PL_CHECK(!parameters_.contains(name) && !buffers_.contains(name) && !children_.contains(name),
           Error, "register_", what, ": '", name, "' is already registered in ", this->name());
}

Tensor &Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_member_name(name, "parameter");
  PL_CHECK(tensor.defined(), Error, "register_parameter: parameter '", name, "' is undefined");
  if (tensor.is_floating_point() && tensor.is_leaf())
    tensor.requires_grad_(requires_grad);
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor &Module::register_buffer(std::string name, Tensor tensor) {
  check_member_name(name, "buffer");
  PL_CHECK(tensor.defined(), Error, "register_buffer: buffer '", name, "' is undefined");
  return buffers_.insert(std::move(name), std::move(tensor));
}

namespace {

void collect(const Module &module, const std::string &prefix, bool recurse, bool buffers,
             OrderedDict<std::string, Tensor> &out,
             const std::function<const OrderedDict<std::string, Tensor> &(const Module &)> &own) {
  for (const auto &item : own(module))
    out.insert(prefix + item.key(), item.value());
  if (!recurse)
    return;
  for (const auto &child : module.named_children())
    collect(*child.value(), prefix + child.key() + ".", true, buffers, out, own);
}

} // namespace

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect(
      *this, "", recurse, false, out,
      [](const Module &m) -> const OrderedDict<std::string, Tensor> & { return m.parameters_; });
  return out;
}

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect(*this, "", recurse, true, out,
          [](const Module &m) -> const OrderedDict<std::string, Tensor> & { return m.buffers_; });
  return out;
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  return named_parameters(recurse).values();
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_children() const {
  return children_;
}

void Module::apply_to_tensors(const std::function<Tensor(const Tensor &)> &convert) {
  // A move of the data, not an op to differentiate.
  const NoGradGuard no_grad;
  for (auto &item : parameters_) {
    item.value().set_data(convert(item.value()));
    if (item.value().grad().defined())
      item.value().mutable_grad() = convert(item.value().grad());
  }
  for (auto &item : buffers_)
    item.value().set_data(convert(item.value()));
  for (auto &child : children_)
    child.value()->apply_to_tensors(convert);
}

void Module::to(Device device, bool non_blocking, SourceLocation loc) {
  apply_to_tensors([&](const Tensor &t) { return t.to(device, non_blocking, false, loc); });
}

void Module::to(ScalarType dtype, bool non_blocking) {
  apply_to_tensors([&](const Tensor &t) {
    // Only floating tensors change dtype, as in libtorch.
    return t.is_floating_point() ? t.to(dtype, non_blocking) : t;
  });
}

void Module::to(Device device, ScalarType dtype, bool non_blocking, SourceLocation loc) {
  apply_to_tensors([&](const Tensor &t) {
    return t.is_floating_point() ? t.to(device, dtype, non_blocking, false, loc)
                                 : t.to(device, non_blocking, false, loc);
  });
}

void Module::zero_grad(bool set_to_none) {
  const NoGradGuard no_grad;
  for (const Tensor &parameter : parameters()) {
    if (!parameter.grad().defined())
      continue;
    Tensor &grad = parameter.mutable_grad();
    if (set_to_none)
      grad = Tensor();
    else
      grad.zero_();
  }
}

void Module::train(bool on) {
  is_training_ = on;
  for (auto &child : children_)
    child.value()->train(on);
}

} // namespace pl::nn
