// issue 19 class 4 (assignment forms): members assigned in a constructor, `m_obs = torch::zeros(...).to(*m_device)`.
// BUG (create-then-move). An A2C/PPO rollout storage allocates its buffers in
// its constructor body: each is filled with zeros (or ones) on the host and
// moved to `*m_device` at once. The device is known in the constructor; the
// factories can take it.
// Look-alike: rollout_members_created_on_device.cpp.
#include <torch/torch.h>

#include <iostream>
#include <memory>

class RolloutStorage {
 public:
  RolloutStorage(int64_t steps, int64_t envs, int64_t obs_dim, torch::Device device)
      : m_device(std::make_shared<torch::Device>(device)), m_steps(steps) {
    m_obs = torch::zeros({steps + 1, envs, obs_dim}).to(*m_device); // expect: placement-create-then-move
    m_rewards = torch::zeros({steps, envs, 1}).to(*m_device); // expect: placement-create-then-move
    m_masks = torch::ones({steps + 1, envs, 1}).to(*m_device); // expect: placement-create-then-move
    m_actions = torch::zeros({steps, envs, 1}, torch::kLong).to(*m_device); // expect: placement-create-then-move
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
