// issue 19 class 12 (a device value that places nothing): Device(kCUDA) constructed and printed, then chosen under a check.
// CORRECT. A launcher names both candidate devices up front, prints the
// preferred one, and picks the CUDA one only when `cuda::is_available()`.
// Constructing or printing a `torch::Device(torch::kCUDA, 0)` allocates
// nothing and needs no GPU; only moving or allocating on it does, and every
// such use here goes through `device`, chosen under the check.
#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device gpu(torch::kCUDA, 0);
  const torch::Device cpu(torch::kCPU);
  std::cout << "preferred device: " << gpu << " (available: " << std::boolalpha << torch::cuda::is_available()
            << ")\n";
  const torch::Device device = torch::cuda::is_available() ? gpu : cpu;
  std::cout << "running on " << device << "\n";

  torch::nn::Sequential model(torch::nn::Linear(16, 32), torch::nn::ReLU(), torch::nn::Linear(32, 1));
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  for (int step = 0; step < 200; ++step) {
    auto x = torch::randn({64, 16}, torch::device(device));
    auto y = x.sum(1, true).sin();
    auto loss = torch::mse_loss(model->forward(x), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
