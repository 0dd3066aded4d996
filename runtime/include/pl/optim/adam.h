// Adam and AdamW, as torch::optim::Adam/AdamW compute them (without
// amsgrad: the kernels have no elementwise maximum yet).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include <pl/optim/optimizer.h>

namespace pl::optim {

using AdamBetas = std::tuple<double, double>;

class AdamOptions {
public:
  /* implicit */ AdamOptions(double lr = 1e-3) : lr_(lr) {}
  PL_OPTIM_ARG(double, lr, 1e-3);
  PL_OPTIM_ARG(AdamBetas, betas, AdamBetas(0.9, 0.999));
  PL_OPTIM_ARG(double, eps, 1e-8);
  PL_OPTIM_ARG(double, weight_decay, 0.0);
  PL_OPTIM_ARG(bool, amsgrad, false);
};

// AdamW decays the weights directly instead of adding the decay to the
// gradient, and decays by default.
class AdamWOptions {
public:
  /* implicit */ AdamWOptions(double lr = 1e-3) : lr_(lr) {}
  PL_OPTIM_ARG(double, lr, 1e-3);
  PL_OPTIM_ARG(AdamBetas, betas, AdamBetas(0.9, 0.999));
  PL_OPTIM_ARG(double, eps, 1e-8);
  PL_OPTIM_ARG(double, weight_decay, 1e-2);
  PL_OPTIM_ARG(bool, amsgrad, false);
};

namespace detail {

// The moment estimates of one parameter.
struct AdamState {
  std::int64_t step = 0;
  Tensor exp_avg;
  Tensor exp_avg_sq;
};

// What Adam and AdamW share: everything but how weight decay applies.
struct AdamSettings {
  double lr, beta1, beta2, eps, weight_decay;
  bool decoupled_weight_decay;
};

} // namespace detail

class Adam : public Optimizer {
public:
  Adam(std::vector<Tensor> parameters, AdamOptions options = {},
       SourceLocation loc = SourceLocation::current());
  Tensor step(LossClosure closure = nullptr) override;
  const AdamOptions &options() const noexcept { return options_; }

protected:
  Adam(std::string name, std::vector<Tensor> parameters, detail::AdamSettings settings,
       bool amsgrad, SourceLocation loc);

private:
  AdamOptions options_;
  detail::AdamSettings settings_;
  std::vector<detail::AdamState> state_;
};

class AdamW : public Adam {
public:
  AdamW(std::vector<Tensor> parameters, AdamWOptions options = {},
        SourceLocation loc = SourceLocation::current());
  const AdamWOptions &options() const noexcept { return options_; }

private:
  AdamWOptions options_;
};

} // namespace pl::optim
