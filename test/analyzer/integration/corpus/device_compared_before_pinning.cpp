// issue 19 class 12 (a device value that places nothing): a device compared with Device(kCUDA).
// CORRECT. The data pipeline pins its host batches only when the chosen
// device is a GPU, testing `device == torch::Device(torch::kCUDA, 0)`. The
// comparison builds a Device value and places nothing; `device` itself comes
// from `cuda::is_available()`.
#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const bool pin = device == torch::Device(torch::kCUDA, 0);
  std::cout << "pinned host memory: " << std::boolalpha << pin << "\n";

  torch::nn::Linear model(128, 10);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::Tensor features, labels;
  torch::load(features, "features.pt");
  torch::load(labels, "labels.pt");
  for (int64_t i = 0; i + 256 <= features.size(0); i += 256) {
    auto x = features.narrow(0, i, 256);
    if (pin)
      x = x.pin_memory();
    auto logits = model(x.to(device, /*non_blocking=*/pin));
    auto loss = torch::nn::functional::cross_entropy(logits, labels.narrow(0, i, 256).to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
