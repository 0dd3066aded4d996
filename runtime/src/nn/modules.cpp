#include <cmath>

#include <pl/factories.h>
#include <pl/nn/modules.h>
#include <pl/ops.h>

namespace pl::nn {

LinearImpl::LinearImpl(const LinearOptions &options_) : Module("Linear"), options(options_) {
  PL_CHECK(options.in_features() >= 0 && options.out_features() >= 0, ShapeError,
           "Linear: in_features and out_features must be non-negative, but got ",
           options.in_features(), " and ", options.out_features());
  const double bound =
      options.in_features() > 0 ? 1.0 / std::sqrt(static_cast<double>(options.in_features())) : 0.0;
  // uniform(-bound, bound)
  weight = register_parameter(
      "weight", pl::rand({options.out_features(), options.in_features()}) * (2 * bound) - bound);
  if (options.bias())
    bias = register_parameter("bias", pl::rand({options.out_features()}) * (2 * bound) - bound);
}

Tensor LinearImpl::forward(const Tensor &input) const { return pl::linear(input, weight, bias); }

Tensor ReLUImpl::forward(const Tensor &input) const { return pl::relu(input); }

Tensor SequentialImpl::forward(const Tensor &input) const {
  Tensor value = input;
  for (const Entry &entry : entries_)
    value = entry.forward(value);
  return value;
}

std::shared_ptr<Module> SequentialImpl::ptr(std::size_t index) const {
  PL_CHECK(index < entries_.size(), IndexError, "Sequential: index ", index,
           " is out of range for a Sequential of ", entries_.size(), " modules");
  return entries_[index].module;
}

} // namespace pl::nn
