// issue 19 class 4 (assignment forms), correct look-alike.
// CORRECT. As rollout_members_assigned_in_constructor.cpp, but the buffers are
// created on `*m_device` by the factories.
#include <torch/torch.h>

#include <iostream>
#include <memory>

class RolloutStorage {
 public:
  RolloutStorage(int64_t steps, int64_t envs, int64_t obs_dim, torch::Device device)
      : m_device(std::make_shared<torch::Device>(device)), m_steps(steps) {
    const auto options = torch::TensorOptions().device(*m_device);
    m_obs = torch::zeros({steps + 1, envs, obs_dim}, options);
    m_rewards = torch::zeros({steps, envs, 1}, options);
    m_masks = torch::ones({steps + 1, envs, 1}, options);
    m_actions = torch::zeros({steps, envs, 1}, options.dtype(torch::kLong));
  }

  void insert(int64_t step, const torch::Tensor &obs, const torch::Tensor &actions, const torch::Tensor &rewards,
              const torch::Tensor &masks) {
    m_obs[step + 1].copy_(obs);
    m_actions[step].copy_(actions);
    m_rewards[step].copy_(rewards);
    m_masks[step + 1].copy_(masks);
  }

  torch::Tensor returns(const torch::Tensor &next_value, double gamma) const {
    auto result = torch::zeros_like(m_rewards);
    auto running = next_value;
    for (int64_t step = m_steps - 1; step >= 0; --step) {
      running = m_rewards[step] + gamma * running * m_masks[step + 1];
      result[step].copy_(running);
    }
    return result;
  }

  const torch::Tensor &observations() const { return m_obs; }

 private:
  std::shared_ptr<torch::Device> m_device;
  int64_t m_steps;
  torch::Tensor m_obs, m_rewards, m_masks, m_actions;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t steps = 5, envs = 8, obs_dim = 4;
  RolloutStorage storage(steps, envs, obs_dim, device);
  torch::nn::Linear policy(obs_dim, 2);
  torch::nn::Linear critic(obs_dim, 1);
  policy->to(device);
  critic->to(device);
  torch::NoGradGuard no_grad;
  for (int64_t step = 0; step < steps; ++step) {
    auto obs = storage.observations()[step];
    auto actions = torch::softmax(policy(obs), 1).multinomial(1);
    auto next_obs = obs + 0.01 * actions.to(torch::kFloat);
    storage.insert(step, next_obs, actions, torch::ones({envs, 1}, torch::device(device)),
                   torch::ones({envs, 1}, torch::device(device)));
  }
  auto returns = storage.returns(critic(storage.observations()[steps]), 0.99);
  std::cout << returns.mean() << "\n";
  return 0;
}
