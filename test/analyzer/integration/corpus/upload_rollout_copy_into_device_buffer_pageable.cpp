// pageable-non-blocking: copy_(src, /*non_blocking=*/true) into a device
// buffer from a host buffer made without pinned memory. BUG. A PPO actor
// fills its host rollout buffer step by step from the environments, then
// copies it into the learner's device buffer with non_blocking=true; the host
// buffer came from torch::zeros with no pinned_memory(true), so the copy is
// staged synchronously and the actor stalls on it (the DAC-HAO/AutoMemMgr
// stream test copies `a_cuda.copy_(a, non_blocking=True)` from a pinned
// `a`; the rule's page cites vLLM#54292).
// Look-alike: upload_rollout_copy_into_device_buffer_pinned.cpp.
#include <torch/torch.h>

#include <vector>

// Stands for a batch of environments: one observation row per environment.
std::vector<float> step_environments(int64_t envs, int64_t obs_dim, int64_t t) {
  std::vector<float> obs(envs * obs_dim);
  for (size_t i = 0; i < obs.size(); ++i)
    obs[i] = static_cast<float>((i * 7 + t) % 101) / 101.0f;
  return obs;
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  const int64_t horizon = 128, envs = 16, obs_dim = 64;
  torch::nn::Sequential critic(torch::nn::Linear(obs_dim, 256), torch::nn::Tanh(), torch::nn::Linear(256, 1));
  critic->to(device);
  torch::optim::Adam optimizer(critic->parameters(), torch::optim::AdamOptions(3e-4));
  auto obs_device = torch::empty({horizon, envs, obs_dim}, torch::device(device));
  for (int iteration = 0; iteration < 1000; ++iteration) {
    // A fresh host buffer each rollout: the previous one may still be in flight.
    auto obs_host = torch::zeros({horizon, envs, obs_dim});
    for (int64_t t = 0; t < horizon; ++t)
      obs_host[t].copy_(torch::tensor(step_environments(envs, obs_dim, t)).view({envs, obs_dim}));
    obs_device.copy_(obs_host, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    auto values = critic->forward(obs_device.view({-1, obs_dim}));
    auto loss = values.pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
