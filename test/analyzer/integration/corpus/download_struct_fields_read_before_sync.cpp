// unsynchronized-read: a struct keeps the tensors downloaded with non_blocking
// as its fields. BUG. Every tenth update the A2C trainer downloads the mean
// reward and the policy entropy into a Metrics struct with non_blocking=true
// and writes them to its log at once: both fields are read before the copies
// land (pytorch/pytorch#86264; NVIDIA/physicsnemo#1742's review of a pinned
// metrics buffer read without a barrier).
// Look-alike: download_struct_fields_synced_once.cpp.
#include <torch/torch.h>

#include <fstream>

struct Metrics {
  torch::Tensor mean_reward; // on the host, filled by a non_blocking copy
  torch::Tensor entropy;
};

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() : net(register_module("net", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(const torch::Tensor &obs) { return torch::log_softmax(net(obs), 1); }
  torch::nn::Linear net;
};
TORCH_MODULE(Policy);

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  Policy policy;
  policy->to(device);
  torch::optim::RMSprop optimizer(policy->parameters(), torch::optim::RMSpropOptions(7e-4));
  std::ofstream log("a2c.csv");
  for (int64_t update = 0; update < 5000; ++update) {
    auto observations = torch::randn({64, 8}, torch::device(device));
    auto log_probs = policy(observations);
    auto actions = log_probs.exp().multinomial(1);
    auto rewards = (actions.squeeze(1) == 2).to(torch::kFloat);
    auto entropy = -(log_probs.exp() * log_probs).sum(1).mean();
    auto loss = -(log_probs.gather(1, actions).squeeze(1) * (rewards - rewards.mean())).mean() - 0.01 * entropy;
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (update % 10 == 0) {
      Metrics metrics;
      metrics.mean_reward = rewards.mean().to(torch::kCPU, /*non_blocking=*/true);
      metrics.entropy = entropy.detach().to(torch::kCPU, /*non_blocking=*/true);
      log << update << "," << metrics.mean_reward.item<float>() << "," << metrics.entropy.item<float>() << "\n"; // expect: placement-unsynchronized-read
    }
  }
  return 0;
}
