// issue 19 class 10 (loops), correct look-alike.
// CORRECT. As ppo_epochs_reupload_rollout.cpp, but the whole rollout goes to
// the device once per iteration, before the epochs loop.
#include <torch/torch.h>

#include <iostream>

struct Rollout {
  torch::Tensor observations, actions, old_log_probs, advantages, returns;
};

struct PolicyValueImpl : torch::nn::Module {
  PolicyValueImpl(int64_t obs, int64_t actions)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(obs, 64), torch::nn::Tanh()))),
        pi(register_module("pi", torch::nn::Linear(64, actions))),
        v(register_module("v", torch::nn::Linear(64, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = body->forward(x);
    return {torch::log_softmax(pi(h), -1), v(h).squeeze(-1)};
  }
  torch::nn::Sequential body;
  torch::nn::Linear pi, v;
};
TORCH_MODULE(PolicyValue);

Rollout load_rollout(int64_t iteration) {
  Rollout r;
  const std::string stem = "rollouts/" + std::to_string(iteration);
  torch::load(r.observations, stem + "_obs.pt");
  torch::load(r.actions, stem + "_act.pt");
  torch::load(r.old_log_probs, stem + "_logp.pt");
  torch::load(r.advantages, stem + "_adv.pt");
  torch::load(r.returns, stem + "_ret.pt");
  return r;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int ppo_epochs = 10;
  const double clip = 0.2;
  PolicyValue model(8, 4);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(3e-4).eps(1e-5));
  for (int64_t iteration = 0; iteration < 100; ++iteration) {
    const Rollout rollout = load_rollout(iteration);
    auto old_log_probs = rollout.old_log_probs.to(device);
    auto returns = rollout.returns.to(device);
    auto obs = rollout.observations.to(device);
    auto actions = rollout.actions.to(device);
    auto advantages = rollout.advantages.to(device);
    for (int epoch = 0; epoch < ppo_epochs; ++epoch) {
      auto [log_probs, values] = model->forward(obs);
      auto ratio = torch::exp(log_probs.gather(1, actions.unsqueeze(1)).squeeze(1) - old_log_probs);
      auto surrogate = torch::min(ratio * advantages, torch::clamp(ratio, 1 - clip, 1 + clip) * advantages);
      auto loss = -surrogate.mean() + 0.5 * (returns - values).pow(2).mean();
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
      optimizer.step();
    }
  }
  return 0;
}
