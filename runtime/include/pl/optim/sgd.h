// Stochastic gradient descent with momentum, dampening, Nesterov momentum
// and weight decay, as torch::optim::SGD computes it.
#pragma once

#include <vector>

#include <pl/optim/optimizer.h>

namespace pl::optim {

class SGDOptions {
public:
  /* implicit */ SGDOptions(double lr) : lr_(lr) {}
  PL_OPTIM_ARG(double, lr, 0.0);
  PL_OPTIM_ARG(double, momentum, 0.0);
  PL_OPTIM_ARG(double, dampening, 0.0);
  PL_OPTIM_ARG(double, weight_decay, 0.0);
  PL_OPTIM_ARG(bool, nesterov, false);
};

class SGD : public Optimizer {
public:
  SGD(std::vector<Tensor> parameters, SGDOptions options,
      SourceLocation loc = SourceLocation::current());
  Tensor step(LossClosure closure = nullptr) override;
  const SGDOptions &options() const noexcept { return options_; }

private:
  SGDOptions options_;
  std::vector<Tensor> momentum_buffers_; // per parameter; undefined until first used
};

} // namespace pl::optim
