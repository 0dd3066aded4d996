// issue 8 class 8: a lambda that captures a cpu tensor.
// BUG. Label smoothing written as a lambda: it captures the uniform prior, a
// 1-dim tensor made with torch::full on the cpu, by value, and is applied to
// log-probabilities on `device`. Look-alike of lambda_captures_device_prior.cpp.
#include <torch/torch.h>

#include <iostream>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)))),
        pool(torch::nn::AdaptiveAvgPool2dOptions({4, 4})),
        fc(register_module("fc", torch::nn::Linear(32 * 16, 10))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(pool(torch::relu(conv(x))).flatten(1)); }
  torch::nn::Conv2d conv;
  torch::nn::AdaptiveAvgPool2d pool;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t classes = 10;
  const double smoothing = 0.1;
  ConvNet model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9).nesterov(true));

  torch::Tensor prior = torch::full({classes}, 1.0 / classes);
  auto smoothed_loss = [prior, smoothing](const torch::Tensor &logits, const torch::Tensor &labels) {
    auto log_probs = torch::log_softmax(logits, 1);
    auto nll = -log_probs.gather(1, labels.unsqueeze(1)).squeeze(1);
    auto uniform = -(log_probs * prior).sum(1); // expect: placement-mixed-device
    return ((1.0 - smoothing) * nll + smoothing * uniform).mean();
  };

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 128);
  int64_t step = 0;
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto &batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = smoothed_loss(model(images), labels);
      loss.backward();
      optimizer.step();
      if (++step % 200 == 0) {
        std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
      }
    }
  }
  return 0;
}
