// placement-non-leaf-parameter: a weight made by an init helper directly on
// the device, given to an optimizer by the caller. CORRECT. As
// init_weight_helper_moved.cpp, but init_weight() puts the device into the
// options: the tables are leaves on the device, their gradients are filled and
// Adam updates them.
#include <torch/torch.h>

#include <iostream>

static torch::Tensor init_weight(int64_t rows, int64_t cols, torch::Device device) {
  return torch::randn({rows, cols}, torch::TensorOptions().device(device).requires_grad(true));
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
