// Class: placement-create-then-move, with the bug (two findings).
// Modelled on: C++ ports of ikostrikov's pytorch-a2c-ppo-acktr RolloutStorage
// (e.g. Omegastick/pytorch-cpp-rl), whose constructor zero-fills the
// rollout tensors and moves them to the policy's device.
// Why it is a bug: rewards_ is made with zeros on the host and moved at
// once through the member (variable form), and masks_ is ones(...).to(d)
// in one chain: both are allocated and filled on the host only to be
// copied to the device.
// Twin: ctm_rollout_storage_constructor_fixed.cpp
#include <torch/torch.h>

#include <iostream>

namespace rl {

class RolloutStorage {
 public:
  RolloutStorage(int64_t steps, int64_t envs, int64_t obs_dim, torch::Device device)
      : steps_(steps) {
    observations_ = torch::empty({steps + 1, envs, obs_dim}, torch::device(device));
    rewards_ = torch::zeros({steps, envs});
    rewards_ = rewards_.to(device); // expect: placement-create-then-move
    masks_ = torch::ones({steps + 1, envs, 1}).to(device); // expect: placement-create-then-move
  }

  void insert(int64_t step, const torch::Tensor& obs, const torch::Tensor& reward,
              const torch::Tensor& done) {
    observations_[step + 1].copy_(obs);
    rewards_[step].copy_(reward);
    masks_[step + 1].copy_(1 - done.unsqueeze(1));
  }

  torch::Tensor discounted_returns(double gamma) const {
    auto returns = torch::zeros_like(rewards_);
    auto running = torch::zeros_like(rewards_[0]);
    for (int64_t t = steps_ - 1; t >= 0; --t) {
      running = rewards_[t] + gamma * running * masks_[t + 1].squeeze(1);
      returns[t].copy_(running);
    }
    return returns;
  }

 private:
  int64_t steps_;
  torch::Tensor observations_, rewards_, masks_;
};

}  // namespace rl

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t steps = 16, envs = 8, obs_dim = 4;
  rl::RolloutStorage storage(steps, envs, obs_dim, device);

  auto options = torch::TensorOptions().device(device);
  for (int64_t t = 0; t < steps; ++t) {
    auto obs = torch::randn({envs, obs_dim}, options);
    auto reward = torch::rand({envs}, options);
    auto done = torch::bernoulli(torch::full({envs}, 0.05, options));
    storage.insert(t, obs, reward, done);
  }
  auto returns = storage.discounted_returns(0.99);
  std::cout << "mean return " << returns.mean().item<float>() << '\n';
}
