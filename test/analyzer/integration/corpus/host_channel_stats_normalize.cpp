// issue 8 class 1 (look-alike): per-feature statistics are not 0-dim.
// BUG. `mean` and `stddev` are reductions over dim 0 of a host calibration
// set: 1-dim cpu tensors of 16 values, not 0-dim, so they are not promoted
// like scalars and `inputs - mean` mixes the device batch with the cpu
// statistics. Look-alike of zero_dim_host_stats_normalize.cpp.
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

  torch::Tensor mean = features.mean(0);
  torch::Tensor stddev = features.std(0);
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
      inputs = (inputs - mean) / stddev; // expect: placement-mixed-device
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
