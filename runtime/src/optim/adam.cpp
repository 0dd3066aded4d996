#include <cmath>

#include <pl/autograd.h>
#include <pl/factories.h>
#include <pl/ops.h>
#include <pl/optim/adam.h>

namespace pl::optim {
namespace {

// The kernels have no sqrt: exp(log(x) / 2), exact enough for a
// denominator that gets eps added (and 0 for x == 0).
Tensor square_root(const Tensor &x) { return (x.log() * 0.5).exp(); }

detail::AdamSettings settings_of(double lr, const AdamBetas &betas, double eps, double weight_decay,
                                 bool decoupled) {
  return {lr, std::get<0>(betas), std::get<1>(betas), eps, weight_decay, decoupled};
}

} // namespace

Adam::Adam(std::vector<Tensor> parameters, AdamOptions options, SourceLocation loc)
    : Adam("Adam", std::move(parameters),
           settings_of(options.lr(), options.betas(), options.eps(), options.weight_decay(), false),
           options.amsgrad(), loc) {
  options_ = options;
}

Adam::Adam(std::string name, std::vector<Tensor> parameters, detail::AdamSettings settings,
           bool amsgrad, SourceLocation loc)
    : Optimizer(std::move(name), std::move(parameters), loc), settings_(settings), state_(size()) {
  PL_CHECK(!amsgrad, Error, this->name(),
           ": amsgrad is not supported by pl (the kernels have no elementwise maximum)");
  PL_CHECK(settings_.lr >= 0, Error, this->name(), ": invalid learning rate ", settings_.lr);
  PL_CHECK(settings_.eps >= 0, Error, this->name(), ": invalid epsilon ", settings_.eps);
  PL_CHECK(settings_.beta1 >= 0 && settings_.beta1 < 1 && settings_.beta2 >= 0 &&
               settings_.beta2 < 1,
           Error, this->name(), ": betas must be in [0, 1), but got (", settings_.beta1, ", ",
           settings_.beta2, ")");
  PL_CHECK(settings_.weight_decay >= 0, Error, this->name(), ": invalid weight_decay ",
           settings_.weight_decay);
}

Tensor Adam::step(LossClosure closure) {
  Tensor loss = evaluate(closure);
  const NoGradGuard no_grad;
  const detail::AdamSettings &s = settings_;
  for (std::size_t i = 0; i < size(); ++i) {
    const Tensor &parameter = parameters()[i];
    const Tensor &grad = parameter.grad();
    if (!grad.defined())
      continue;
    check_on_parameter_device(i, "grad", grad);
    detail::AdamState &state = state_[i];
    if (!state.exp_avg.defined()) {
      state.exp_avg = pl::zeros(parameter.sizes(), parameter.options());
      state.exp_avg_sq = pl::zeros(parameter.sizes(), parameter.options());
    }
    check_on_parameter_device(i, "exp_avg", state.exp_avg);
    check_on_parameter_device(i, "exp_avg_sq", state.exp_avg_sq);
    ++state.step;
    Tensor gradient = grad;
    if (s.weight_decay != 0) {
      if (s.decoupled_weight_decay)
        parameter.mul_(1 - s.lr * s.weight_decay);
      else
        gradient = gradient + parameter * s.weight_decay;
    }
    state.exp_avg.mul_(s.beta1).add_(gradient * (1 - s.beta1));
    state.exp_avg_sq.mul_(s.beta2).add_(gradient * gradient * (1 - s.beta2));
    const double step = static_cast<double>(state.step);
    const double bias_correction1 = 1 - std::pow(s.beta1, step);
    const double bias_correction2 = 1 - std::pow(s.beta2, step);
    const Tensor denominator = square_root(state.exp_avg_sq) / std::sqrt(bias_correction2) + s.eps;
    parameter.sub_(state.exp_avg / denominator * (s.lr / bias_correction1));
  }
  return loss;
}

AdamW::AdamW(std::vector<Tensor> parameters, AdamWOptions options, SourceLocation loc)
    : Adam("AdamW", std::move(parameters),
           settings_of(options.lr(), options.betas(), options.eps(), options.weight_decay(), true),
           options.amsgrad(), loc),
      options_(options) {}

} // namespace pl::optim
