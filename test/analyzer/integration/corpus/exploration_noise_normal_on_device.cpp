// issue 19 class 1 (factories beyond the list), correct look-alike.
// CORRECT. As exploration_noise_normal_moved.cpp, but the smoothing noise is
// `torch::randn_like(batch.act) * sigma`, drawn on the actions' device, as in
// the Python original.
#include <torch/torch.h>

#include <iostream>

struct ActorImpl : torch::nn::Module {
  ActorImpl(int64_t obs, int64_t act)
      : l1(register_module("l1", torch::nn::Linear(obs, 256))),
        l2(register_module("l2", torch::nn::Linear(256, 256))),
        l3(register_module("l3", torch::nn::Linear(256, act))) {}
  torch::Tensor forward(const torch::Tensor &s) { return torch::tanh(l3(torch::relu(l2(torch::relu(l1(s)))))); }
  torch::nn::Linear l1, l2, l3;
};
TORCH_MODULE(Actor);

struct CriticImpl : torch::nn::Module {
  CriticImpl(int64_t obs, int64_t act)
      : l1(register_module("l1", torch::nn::Linear(obs + act, 256))),
        l2(register_module("l2", torch::nn::Linear(256, 1))) {}
  torch::Tensor forward(const torch::Tensor &s, const torch::Tensor &a) {
    return l2(torch::relu(l1(torch::cat({s, a}, 1))));
  }
  torch::nn::Linear l1, l2;
};
TORCH_MODULE(Critic);

struct Replay {
  torch::Tensor obs, act, reward, next_obs, not_done; // all on the device
};

torch::Tensor td_target(Actor &actor_target, Critic &critic_target, const Replay &batch, double gamma,
                        double policy_noise, double noise_clip) {
  torch::NoGradGuard no_grad;
  auto noise = (torch::randn_like(batch.act) * policy_noise).clamp(-noise_clip, noise_clip);
  auto next_action = (actor_target->forward(batch.next_obs) + noise).clamp(-1.0, 1.0);
  auto target_q = critic_target->forward(batch.next_obs, next_action);
  return batch.reward + batch.not_done * gamma * target_q;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 17, act_dim = 6, batch = 256;
  Actor actor_target(obs_dim, act_dim);
  Critic critic(obs_dim, act_dim), critic_target(obs_dim, act_dim);
  actor_target->to(device);
  critic->to(device);
  critic_target->to(device);
  torch::optim::Adam critic_opt(critic->parameters(), 3e-4);
  for (int it = 0; it < 1000; ++it) {
    Replay b{torch::randn({batch, obs_dim}, torch::device(device)), torch::rand({batch, act_dim}, torch::device(device)),
             torch::randn({batch, 1}, torch::device(device)), torch::randn({batch, obs_dim}, torch::device(device)),
             torch::ones({batch, 1}, torch::device(device))};
    auto target = td_target(actor_target, critic_target, b, 0.99, 0.2, 0.5);
    auto loss = torch::mse_loss(critic->forward(b.obs, b.act), target);
    critic_opt.zero_grad();
    loss.backward();
    critic_opt.step();
  }
  std::cout << "done\n";
  return 0;
}
