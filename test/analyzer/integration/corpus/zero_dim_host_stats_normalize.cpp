// issue 8 class 1: 0-dim results of full reductions used with device tensors.
// CORRECT. `mean` and `stddev` are full reductions (no dim argument) of a host
// calibration set, so they are 0-dim cpu tensors; `target_scale` comes from
// torch::tensor(scalar). PyTorch promotes a 0-dim cpu tensor like a scalar
// when it is an input of an op on another device, also as the argument of an
// in-place op on a device tensor (`targets.mul_(target_scale)`).
// Look-alike of host_channel_stats_normalize.cpp.
#include <torch/torch.h>

#include <iostream>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl()
      : fc1(register_module("fc1", torch::nn::Linear(16, 64))),
        fc2(register_module("fc2", torch::nn::Linear(64, 1))) {}

  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }

  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Regressor);

struct Readings : torch::data::datasets::Dataset<Readings> {
  explicit Readings(torch::Tensor features, torch::Tensor values)
      : features_(std::move(features)), values_(std::move(values)) {}
  torch::data::Example<> get(size_t index) override {
    return {features_[index], values_[index]};
  }
  torch::optional<size_t> size() const override { return features_.size(0); }
  torch::Tensor features_, values_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor features = torch::randn({4096, 16});
  torch::Tensor values = features.sum(1, /*keepdim=*/true).sin();

  torch::Tensor mean = features.mean();
  torch::Tensor stddev = features.std();
  torch::Tensor target_scale = torch::tensor(0.01);

  Regressor model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Readings(features, values).map(torch::data::transforms::Stack<>()), 64);

  int64_t step = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      auto inputs = batch.data.to(device);
      auto targets = batch.target.to(device);
      inputs = (inputs - mean) / stddev;
      targets.mul_(target_scale);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(inputs), targets);
      loss.backward();
      optimizer.step();
      if (++step % 100 == 0) {
        std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
      }
    }
  }
  return 0;
}
