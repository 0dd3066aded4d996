// issue 19 class 14 (buffers made by a factory and moved by Module::to), pl.
// CORRECT. A normalisation layer registers its running statistics as buffers
// made by `pl::zeros`/`pl::ones` in its constructor, which cannot know the
// device; the program moves the model with `model->to(device)` later. That
// is the idiom, not create-then-move, for the analyzer and for the runtime's
// transfer guard alike (the two halves must agree).
#include <pl/pl.h>

#include <iostream>

struct RunningNormImpl : pl::nn::Module {
  explicit RunningNormImpl(std::int64_t features) : pl::nn::Module("RunningNorm") {
    mean = register_buffer("mean", pl::zeros({1, features}));
    var = register_buffer("var", pl::ones({1, features}));
  }
  pl::Tensor forward(const pl::Tensor &x) const { return (x - mean) / (var + 1e-5); }
  pl::Tensor mean, var;
};
PL_MODULE(RunningNorm);

struct RegressorImpl : pl::nn::Module {
  RegressorImpl()
      : pl::nn::Module("Regressor"), norm(register_module("norm", RunningNorm(12))),
        body(register_module("body", pl::nn::Sequential(pl::nn::Linear(12, 32), pl::nn::ReLU(), pl::nn::Linear(32, 1)))) {}
  pl::Tensor forward(const pl::Tensor &x) const { return body(norm(x)); }
  RunningNorm norm;
  pl::nn::Sequential body;
};
PL_MODULE(Regressor);

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  Regressor model;
  model->to(device);
  pl::optim::Adam optimizer(model->parameters(), pl::optim::AdamOptions(1e-3));
  for (int step = 0; step < 200; ++step) {
    auto x = pl::randn({64, 12}, pl::device(device));
    auto error = model(x) - x.sum({1}, true);
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
