// issue 19 class 3 (device spellings), pl: the device through a pointer to a config and a reference parameter.
// BUG (mixed-device). The trainer reads its device as `cfg->device` from a
// `const Config *` and passes it on as `const pl::Device &`. The model is
// moved there; the bias correction made in the helper with `pl::full` stays
// on the cpu and meets the model's output.
// Look-alike: config_pointer_device_moved.cpp.
#include <pl/pl.h>

#include <iostream>
#include <string>

struct Config {
  pl::Device device{pl::kCPU};
  std::int64_t steps = 200;
};

pl::Tensor corrected(const pl::Tensor &prediction, const pl::Device &device) {
  auto offset = pl::full({1, 4}, 0.1);
  return prediction - offset; // expect: placement-mixed-device
}

void train(pl::nn::Sequential &model, const Config *cfg) {
  model->to(cfg->device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.01));
  for (std::int64_t step = 0; step < cfg->steps; ++step) {
    auto x = pl::randn({16, 8}, pl::device(cfg->device));
    auto target = x.narrow(1, 0, 4);
    auto error = corrected(model(x), cfg->device) - target;
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

int main(int argc, char **argv) {
  Config cfg;
  if (argc > 1)
    cfg.device = pl::Device(std::string(argv[1]));
  pl::nn::Sequential model(pl::nn::Linear(8, 32), pl::nn::ReLU(), pl::nn::Linear(32, 4));
  train(model, &cfg);
  std::cout << "trained\n";
  return 0;
}
