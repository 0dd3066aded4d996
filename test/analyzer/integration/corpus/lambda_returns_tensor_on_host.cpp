// issue 19 class 7 (consequences across functions): a lambda stored in a variable returns a host tensor.
// BUG (mixed-device). REINFORCE with a baseline: the discounted returns are
// computed in plain C++ and turned into a tensor by a small lambda,
// `to_tensor`, which returns it on the cpu. The advantage subtracts the
// critic's values, on `device`, from it.
// Look-alike: lambda_returns_tensor_moved.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct ActorCriticImpl : torch::nn::Module {
  ActorCriticImpl(int64_t obs, int64_t actions)
      : shared(register_module("shared", torch::nn::Linear(obs, 128))),
        actor(register_module("actor", torch::nn::Linear(128, actions))),
        critic(register_module("critic", torch::nn::Linear(128, 1))) {}
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = torch::relu(shared(x));
    return {torch::log_softmax(actor(h), -1), critic(h).squeeze(-1)};
  }
  torch::nn::Linear shared, actor, critic;
};
TORCH_MODULE(ActorCritic);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const double gamma = 0.99;
  ActorCritic model(8, 4);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 3e-3);

  auto to_tensor = [](const std::vector<float> &values) { return torch::tensor(values); };

  torch::Tensor episode_obs, episode_actions;
  torch::load(episode_obs, "episode_obs.pt");         // [T, 8]
  torch::load(episode_actions, "episode_actions.pt"); // [T]
  std::vector<float> rewards(static_cast<size_t>(episode_obs.size(0)), 1.0f);

  std::vector<float> returns(rewards.size());
  float running = 0.0f;
  for (size_t t = rewards.size(); t-- > 0;) {
    running = rewards[t] + static_cast<float>(gamma) * running;
    returns[t] = running;
  }
  auto [log_probs, values] = model->forward(episode_obs.to(device));
  auto chosen = log_probs.gather(1, episode_actions.to(device).view({-1, 1})).squeeze(1);
  auto returns_t = to_tensor(returns);
  auto advantage = returns_t - values; // expect: placement-mixed-device
  auto loss = -(chosen * advantage.detach()).mean() + 0.5 * advantage.pow(2).mean();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  std::cout << "loss " << loss.item<float>() << "\n";
  return 0;
}
