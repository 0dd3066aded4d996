// issue 19 class 1 (factories beyond the list): randint, moved at once.
// BUG (create-then-move). A throughput benchmark with synthetic data, as
// training scripts have behind a `--synthetic` flag: the images are drawn on
// the device, but the labels come from `torch::randint` on the host and are
// copied over on every iteration. `randint` takes the device in its options.
#include <torch/torch.h>

#include <chrono>
#include <iostream>

torch::nn::Sequential make_classifier(int64_t classes) {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::BatchNorm2d(32),
      torch::nn::ReLU(), torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)),
      torch::nn::BatchNorm2d(64), torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(),
      torch::nn::Linear(64, classes));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t batch = 64, classes = 1000, iterations = 100;
  auto model = make_classifier(classes);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::nn::CrossEntropyLoss criterion;

  const auto start = std::chrono::steady_clock::now();
  for (int64_t it = 0; it < iterations; ++it) {
    auto images = torch::randn({batch, 3, 224, 224}, torch::device(device));
    auto labels = torch::randint(0, classes, {batch}, torch::kLong).to(device); // expect: placement-create-then-move
    optimizer.zero_grad();
    auto loss = criterion(model->forward(images), labels);
    loss.backward();
    optimizer.step();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << iterations * batch / seconds << " images/s\n";
  return 0;
}
