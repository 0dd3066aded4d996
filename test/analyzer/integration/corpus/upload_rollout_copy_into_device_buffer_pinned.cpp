// pageable-non-blocking: copy_(src, /*non_blocking=*/true) into a device
// buffer from a pinned host buffer. CORRECT. As
// upload_rollout_copy_into_device_buffer_pageable.cpp, but the host rollout
// buffer is made with TensorOptions().pinned_memory(true), so the copy into
// the device buffer runs asynchronously (the DAC-HAO/AutoMemMgr stream test:
// `a = torch.rand(..., pin_memory=True)` then `a_cuda.copy_(a, non_blocking=True)`).
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
    auto obs_host = torch::zeros({horizon, envs, obs_dim}, torch::TensorOptions().pinned_memory(true));
    for (int64_t t = 0; t < horizon; ++t)
      obs_host[t].copy_(torch::tensor(step_environments(envs, obs_dim, t)).view({envs, obs_dim}));
    obs_device.copy_(obs_host, /*non_blocking=*/true);
    auto values = critic->forward(obs_device.view({-1, obs_dim}));
    auto loss = values.pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
