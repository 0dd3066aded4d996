// issue 8 class 16: a tensor changed in place between iterations, then moved.
// CORRECT. An RL observation normaliser keeps its running mean and variance on
// the host and updates them in place every step through a helper that takes
// them by non-const reference. Moving them to `device` in the loop moves a
// tensor that changed since the last iteration: not an invariant transfer.
#include <torch/torch.h>

#include <iostream>

void update_running_stats(torch::Tensor &mean, torch::Tensor &m2, const torch::Tensor &x, int64_t count) {
  auto delta = x - mean;
  mean.add_(delta / static_cast<double>(count));
  m2.add_(delta * (x - mean));
}

torch::Tensor environment_step(int64_t step) {
  return torch::cos(torch::arange(17, torch::kFloat) * 0.1 * static_cast<double>(step));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential critic(torch::nn::Linear(17, 64), torch::nn::Tanh(), torch::nn::Linear(64, 1));
  critic->to(device);
  torch::optim::Adam optimizer(critic->parameters(), 3e-4);

  torch::Tensor mean = torch::zeros({17});
  torch::Tensor m2 = torch::zeros({17});
  for (int64_t step = 1; step <= 100000; ++step) {
    auto observation = environment_step(step);
    update_running_stats(mean, m2, observation, step);
    auto obs = observation.to(device);
    auto mu = mean.to(device);
    auto sigma = (m2 / static_cast<double>(step)).sqrt().clamp_min(1e-8).to(device);
    auto value = critic->forward(((obs - mu) / sigma).unsqueeze(0));
    auto loss = value.pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 10000 == 0) {
      std::cout << "step " << step << " value " << value.item<float>() << "\n";
    }
  }
  return 0;
}
