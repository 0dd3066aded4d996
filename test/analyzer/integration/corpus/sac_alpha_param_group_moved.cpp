// issue 19 class 11 (non-leaf parameters handed over in other ways): an OptimizerParamGroup.
// BUG (non-leaf-parameter, at the move). Soft actor-critic learns its entropy
// temperature through `log_alpha`, created with requires_grad on the host
// and then moved: the moved copy is not a leaf. It is handed to the
// optimizer in a second parameter group (its own learning rate); backward()
// never fills its grad() and alpha never changes.
// Look-alike: sac_alpha_param_group_on_device.cpp.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

struct GaussianActorImpl : torch::nn::Module {
  GaussianActorImpl(int64_t obs, int64_t act)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(obs, 256), torch::nn::ReLU()))),
        mu(register_module("mu", torch::nn::Linear(256, act))),
        log_std(register_module("log_std", torch::nn::Linear(256, act))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &s) {
    auto h = body->forward(s);
    auto std = log_std(h).clamp(-20, 2).exp();
    auto pre = mu(h) + std * torch::randn_like(std);
    auto action = torch::tanh(pre);
    auto log_prob = (-0.5 * ((pre - mu(h)) / std).pow(2) - std.log() - 0.9189385).sum(1) -
                    torch::log(1 - action.pow(2) + 1e-6).sum(1);
    return {action, log_prob};
  }
  torch::nn::Sequential body;
  torch::nn::Linear mu, log_std;
};
TORCH_MODULE(GaussianActor);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 11, act_dim = 3;
  const double target_entropy = -static_cast<double>(act_dim);
  GaussianActor actor(obs_dim, act_dim);
  actor->to(device);
  auto log_alpha = torch::zeros({1}, torch::requires_grad()).to(device); // expect: placement-non-leaf-parameter

  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(actor->parameters(), std::make_unique<torch::optim::AdamOptions>(3e-4));
  groups.emplace_back(std::vector<torch::Tensor>{log_alpha}, std::make_unique<torch::optim::AdamOptions>(1e-3));
  torch::optim::Adam optimizer(std::move(groups), torch::optim::AdamOptions(3e-4));

  torch::Tensor states;
  torch::load(states, "replay_states.pt");
  states = states.to(device);
  for (int step = 0; step < 10000; ++step) {
    auto batch = states.index_select(0, torch::randint(states.size(0), {256}, torch::TensorOptions().dtype(torch::kLong).device(device)));
    auto [action, log_prob] = actor->forward(batch);
    auto alpha = log_alpha.exp();
    auto actor_loss = (alpha.detach() * log_prob - action.pow(2).sum(1)).mean();
    auto alpha_loss = -(log_alpha * (log_prob.detach() + target_entropy)).mean();
    optimizer.zero_grad();
    (actor_loss + alpha_loss).backward();
    optimizer.step();
  }
  return 0;
}
