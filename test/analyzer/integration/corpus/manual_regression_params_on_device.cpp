// placement-non-leaf-parameter (tabled apart).
// CORRECT look-alike of manual_regression_params_moved: the parameters are
// made on the device, w asking for gradients in its options and b marked
// requires_grad_() after, so both are leaves that Adam updates.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::randn({256, 8}, torch::TensorOptions().device(device));
  auto y = x.matmul(torch::arange(8, torch::TensorOptions().dtype(torch::kFloat).device(device)));

  auto w = torch::randn({8}, torch::TensorOptions().device(device).requires_grad(true));
  auto b = torch::zeros({1}, torch::TensorOptions().device(device)).requires_grad_();
  torch::optim::Adam optimizer({w, b}, torch::optim::AdamOptions(0.05));
  for (int epoch = 0; epoch < 200; ++epoch) {
    auto loss = torch::mse_loss(x.matmul(w) + b, y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << w << "\n";
  return 0;
}
