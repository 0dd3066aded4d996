// unsynchronized-read: a struct keeps the tensors downloaded with non_blocking
// as its fields. CORRECT. As download_struct_fields_read_before_sync.cpp, but
// after queueing both copies the trainer synchronises once, then writes the
// fields to its log: two copies in flight together, one wait (the pattern of
// pytorch/tutorials#2983: many non_blocking copies, then one
// torch.cuda.synchronize()).
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
      torch::cuda::synchronize();
      log << update << "," << metrics.mean_reward.item<float>() << "," << metrics.entropy.item<float>() << "\n";
    }
  }
  return 0;
}
