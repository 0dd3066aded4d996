// Rule: placement-unguarded-cuda (a device string in a config struct's default
// member initializer).
// Modelled on: C++ training programs whose config struct mirrors a YAML/argparse
// config with `device: cuda` as the default, and the libtorch reports "CUDA error:
// no CUDA GPUs are available" / "Cannot initialize CUDA without ATen_cuda library"
// from users running them on laptops and CI runners.
// Why it is a bug: TrainConfig::device defaults to "cuda" and no option changes it;
// the Trainer's constructor moves the model to that device with no availability
// check anywhere on the path from main, so the program fails on a machine without a
// GPU. (The later batch moves run only after the constructor's move succeeded.)
// Twin: unguarded_config_default_device_string_fixed.cpp (main falls back to the CPU).
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <string>

struct TrainConfig {
  std::string device = "cuda";
  int epochs = 5;
  double lr = 1e-3;
  int64_t batch_size = 64;
};

TrainConfig parse_args(int argc, char **argv) {
  TrainConfig cfg;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--epochs") == 0) cfg.epochs = std::stoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--lr") == 0) cfg.lr = std::stod(argv[i + 1]);
    else if (std::strcmp(argv[i], "--batch-size") == 0) cfg.batch_size = std::stoll(argv[i + 1]);
    else std::cerr << "ignoring unknown option " << argv[i] << "\n";
  }
  return cfg;
}

class Trainer {
 public:
  explicit Trainer(const TrainConfig &cfg)
      : cfg_(cfg), device_(cfg.device),
        model_(torch::nn::Linear(32, 64), torch::nn::ReLU(), torch::nn::Linear(64, 1)) {
    model_->to(device_); // expect: placement-unguarded-cuda
    opt_ = std::make_unique<torch::optim::Adam>(model_->parameters(), torch::optim::AdamOptions(cfg_.lr));
  }

  double epoch(const torch::Tensor &x, const torch::Tensor &y) {
    auto total = torch::zeros({}, torch::TensorOptions().device(device_));
    for (int64_t start = 0; start < x.size(0); start += cfg_.batch_size) {
      auto xb = x.narrow(0, start, std::min(cfg_.batch_size, x.size(0) - start)).to(device_);
      auto yb = y.narrow(0, start, xb.size(0)).to(device_);
      opt_->zero_grad();
      auto loss = torch::mse_loss(model_->forward(xb), yb);
      loss.backward();
      opt_->step();
      total += loss.detach() * xb.size(0);
    }
    return total.item<double>() / static_cast<double>(x.size(0));
  }

 private:
  TrainConfig cfg_;
  torch::Device device_;
  torch::nn::Sequential model_;
  std::unique_ptr<torch::optim::Adam> opt_;
};

int main(int argc, char **argv) {
  TrainConfig cfg = parse_args(argc, argv);
  auto x = torch::randn({2048, 32});
  auto y = x.pow(2).sum(1, /*keepdim=*/true);
  Trainer trainer(cfg);
  for (int e = 0; e < cfg.epochs; ++e) std::cout << "epoch " << e << " mse " << trainer.epoch(x, y) << "\n";
  return 0;
}
