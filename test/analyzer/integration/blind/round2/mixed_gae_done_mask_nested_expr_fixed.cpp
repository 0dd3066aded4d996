// Rule: placement-mixed-device, correct look-alike (a host tensor deep inside one expression).
// Modelled on: libtorch ports of PPO/A2C (the compute-returns/GAE step of C++ RL
// projects), which fail with "Expected all tensors to be on the same device, but
// found at least two devices, cuda:0 and cpu!" when one rollout field stays behind.
// Why it is correct: the flags come from the environment as a std::vector<float>,
// are wrapped with torch::tensor on the host and then moved to the device of the
// rewards and values, so every operand of gae() is on one device.
// Twin: mixed_gae_done_mask_nested_expr.cpp (the flags stay on the host).
#include <torch/torch.h>

#include <cstdio>
#include <vector>

namespace rl {

struct Rollout {
  torch::Tensor rewards;  // [T, N]
  torch::Tensor values;   // [T + 1, N]
  torch::Tensor dones;    // [T, N]
};

struct CriticImpl : torch::nn::Module {
  explicit CriticImpl(int64_t obs_dim)
      : net(register_module("net", torch::nn::Sequential(torch::nn::Linear(obs_dim, 64), torch::nn::Tanh(),
                                                         torch::nn::Linear(64, 1)))) {}
  torch::Tensor forward(torch::Tensor obs) { return net->forward(obs).squeeze(-1); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Critic);

torch::Tensor gae(const Rollout &r, double gamma, double lambda) {
  const int64_t steps = r.rewards.size(0);
  auto advantages = torch::zeros_like(r.rewards);
  auto running = torch::zeros_like(r.rewards[0]);
  for (int64_t t = steps - 1; t >= 0; --t) {
    auto delta = r.rewards[t] + gamma * r.values[t + 1] * (1 - r.dones[t]) - r.values[t];
    running = delta + gamma * lambda * (1 - r.dones[t]) * running;
    advantages[t] = running;
  }
  return advantages;
}

std::vector<float> episode_boundaries(int64_t steps, int64_t envs, int64_t episode_len) {
  std::vector<float> flags(static_cast<size_t>(steps * envs), 0.f);
  for (int64_t t = 0; t < steps; ++t)
    for (int64_t e = 0; e < envs; ++e)
      if ((t + e) % episode_len == episode_len - 1) flags[static_cast<size_t>(t * envs + e)] = 1.f;
  return flags;
}

} // namespace rl

int main() {
  const int64_t steps = 128, envs = 8, obs_dim = 16;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  rl::Critic critic(obs_dim);
  critic->to(device);

  auto opts = torch::TensorOptions().device(device);
  auto observations = torch::randn({steps + 1, envs, obs_dim}, opts);

  rl::Rollout rollout;
  rollout.rewards = torch::randn({steps, envs}, opts);
  {
    torch::NoGradGuard no_grad;
    rollout.values = critic(observations);
  }
  auto flags = rl::episode_boundaries(steps, envs, 50);
  rollout.dones = torch::tensor(flags).view({steps, envs}).to(device);

  auto adv = rl::gae(rollout, 0.99, 0.95);
  auto returns = adv + rollout.values.slice(0, 0, steps);
  std::printf("mean return %.4f\n", returns.mean().item<double>());
  return 0;
}
