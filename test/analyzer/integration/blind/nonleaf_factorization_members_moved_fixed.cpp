// Class: placement-non-leaf-parameter, correct look-alike.
// Modelled on: matrix-factorisation recommenders written against raw
// tensors in C++ (no nn::Module), and the forum threads "parameters not
// updating after .to(device)" / "grad is None after moving to GPU"
// (discuss.pytorch.org), where requires_grad is set before the move.
// Why it is not a bug: the factors are created on the device with
// requires_grad in the factory's options, so the members are leaves and
// Adam updates them.
// Twin: nonleaf_factorization_members_moved.cpp
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace recsys {

class MatrixFactorization {
 public:
  MatrixFactorization(int64_t users, int64_t items, int64_t rank, torch::Device device) {
    const auto options = torch::TensorOptions().device(device).requires_grad(true);
    user_factors_ = torch::randn({users, rank}, options);
    item_factors_ = torch::randn({items, rank}, options);
  }

  torch::Tensor predict(const torch::Tensor& users, const torch::Tensor& items) const {
    return (user_factors_.index_select(0, users) * item_factors_.index_select(0, items)).sum(1);
  }

  std::vector<torch::Tensor> parameters() const { return {user_factors_, item_factors_}; }

 private:
  torch::Tensor user_factors_;
  torch::Tensor item_factors_;
};

}  // namespace recsys

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t users = 500, items = 800;
  recsys::MatrixFactorization mf(users, items, 16, device);
  torch::optim::Adam opt(mf.parameters(), torch::optim::AdamOptions(0.01));

  auto u = torch::randint(0, users, {20000}, torch::kLong);
  auto v = torch::randint(0, items, {20000}, torch::kLong);
  auto r = torch::rand({20000}) * 5;
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto perm = torch::randperm(u.size(0), torch::kLong);
    auto epoch_loss = torch::zeros({}, torch::device(device));
    for (int64_t i = 0; i < perm.size(0); i += 1024) {
      auto idx = perm.slice(0, i, i + 1024);
      auto bu = u.index_select(0, idx).to(device);
      auto bv = v.index_select(0, idx).to(device);
      auto br = r.index_select(0, idx).to(device);
      opt.zero_grad();
      auto loss = torch::mse_loss(mf.predict(bu, bv), br);
      loss.backward();
      opt.step();
      epoch_loss += loss.detach();
    }
    std::cout << "epoch " << epoch << " mse " << epoch_loss.item<double>() << '\n';
  }
}
