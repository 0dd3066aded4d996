// placement-non-leaf-parameter (tabled apart).
// BUG. Linear regression with hand-made parameters, written the PyTorch
// way: `torch::randn(..., requires_grad()).to(device)`. On a GPU, w and b
// are the copies .to() made, not leaves: backward() fills the gradients of
// the host tensors left behind, and Adam never moves w and b.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::randn({256, 8}, torch::TensorOptions().device(device));
  auto y = x.matmul(torch::arange(8, torch::TensorOptions().dtype(torch::kFloat).device(device)));

  auto w = torch::randn({8}, torch::requires_grad()).to(device); // expect: placement-non-leaf-parameter
  auto b = torch::zeros({1}, torch::TensorOptions().requires_grad(true)).to(device); // expect: placement-non-leaf-parameter
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
