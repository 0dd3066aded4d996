#include <pl/autograd.h>
#include <pl/ops.h>
#include <pl/optim/sgd.h>

namespace pl::optim {

SGD::SGD(std::vector<Tensor> parameters, SGDOptions options, SourceLocation loc)
    : Optimizer("SGD", std::move(parameters), loc), options_(options), momentum_buffers_(size()) {
  PL_CHECK(options_.lr() >= 0, Error, "SGD: invalid learning rate ", options_.lr());
  PL_CHECK(options_.momentum() >= 0, Error, "SGD: invalid momentum ", options_.momentum());
  PL_CHECK(options_.weight_decay() >= 0, Error, "SGD: invalid weight_decay ",
           options_.weight_decay());
  PL_CHECK(!options_.nesterov() || (options_.momentum() > 0 && options_.dampening() == 0), Error,
           "SGD: Nesterov momentum requires a momentum and zero dampening");
}

Tensor SGD::step(LossClosure closure) {
  Tensor loss = evaluate(closure);
  const NoGradGuard no_grad;
  for (std::size_t i = 0; i < size(); ++i) {
    const Tensor &parameter = parameters()[i];
    const Tensor &grad = parameter.grad();
    if (!grad.defined())
      continue;
    check_on_parameter_device(i, "grad", grad);
    Tensor &buffer = momentum_buffers_[i];
    if (buffer.defined())
      check_on_parameter_device(i, "momentum_buffer", buffer);
    Tensor direction = grad;
    if (options_.weight_decay() != 0)
      direction = direction + parameter * options_.weight_decay();
    if (options_.momentum() != 0) {
      if (!buffer.defined())
        buffer = direction.clone();
      else
        buffer.mul_(options_.momentum()).add_(direction * (1 - options_.dampening()));
      direction = options_.nesterov() ? direction + buffer * options_.momentum() : buffer;
    }
    parameter.sub_(direction * options_.lr());
  }
  return loss;
}

} // namespace pl::optim
