// placement-non-leaf-parameter: a weight made by an init helper, moved
// inside it, given to an optimizer by the caller. BUG. A hand-written
// factorisation model makes its embedding tables with init_weight(), which
// draws them with requires_grad and then moves them with .to(device): on a
// GPU the helper returns the copy .to() made, a non-leaf, so backward()
// accumulates gradients in the host tensor left behind and Adam never updates
// the tables (a frequent PyTorch-forums question: grad() undefined after
// .to(device), Python's optimizers refusing with "can't optimize a non-leaf
// Tensor"; here moved into a helper as hand-written models do). The finding
// is the move inside the helper.
// Look-alike: init_weight_helper_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

static torch::Tensor init_weight(int64_t rows, int64_t cols, torch::Device device) {
  return torch::randn({rows, cols}, torch::TensorOptions().requires_grad(true)).to(device); // expect: placement-non-leaf-parameter
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t users = 2000, items = 5000, rank = 32;
  auto user_factors = init_weight(users, rank, device);
  auto item_factors = init_weight(items, rank, device);
  torch::optim::Adam optimizer({user_factors, item_factors}, torch::optim::AdamOptions(1e-2));
  for (int64_t step = 0; step < 1000; ++step) {
    auto user_ids = torch::randint(0, users, {512}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto item_ids = torch::randint(0, items, {512}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto ratings = torch::rand({512}, torch::device(device)) * 5;
    auto predicted = (user_factors.index_select(0, user_ids) * item_factors.index_select(0, item_ids)).sum(1);
    auto loss = torch::mse_loss(predicted, ratings);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << user_factors.norm() << "\n";
  return 0;
}
