// issue 19 class 10 (loops): minibatches of a stored rollout uploaded again in every PPO epoch.
// BUG (transfer-in-loop). The rollout is split into minibatches once, on the
// host; each of the `ppo_epochs` passes walks over the same chunks and
// uploads each of them again. Per inner iteration the chunk differs, but
// across epochs the same bytes cross the bus `ppo_epochs` times: the
// transfer is invariant in the outer loop. Uploading the rollout once and
// chunking on the device avoids it.
// Look-alike: ppo_rollout_uploaded_once.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int ppo_epochs = 4;
  const int64_t minibatch = 64;
  torch::nn::Sequential policy(torch::nn::Linear(24, 64), torch::nn::Tanh(), torch::nn::Linear(64, 4));
  policy->to(device);
  torch::optim::Adam optimizer(policy->parameters(), 3e-4);
  torch::Tensor observations, targets;
  torch::load(observations, "rollout_obs.pt"); // [2048, 24]
  torch::load(targets, "rollout_targets.pt");  // [2048, 4]
  const std::vector<torch::Tensor> obs_chunks = observations.split(minibatch);
  const std::vector<torch::Tensor> target_chunks = targets.split(minibatch);
  for (int epoch = 0; epoch < ppo_epochs; ++epoch) {
    for (size_t i = 0; i < obs_chunks.size(); ++i) {
      auto x = obs_chunks[i].to(device); // expect: placement-transfer-in-loop
      auto y = target_chunks[i].to(device); // expect: placement-transfer-in-loop
      auto loss = torch::mse_loss(policy->forward(x), y);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
