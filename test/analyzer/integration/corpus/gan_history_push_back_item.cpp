// issue 19 class 10 (loops): `.item()` at the end of an op chain inside push_back, every iteration.
// BUG (transfer-in-loop, twice). A GAN keeps loss curves for plotting:
// `d_history.push_back(d_loss.detach().mean().item<float>())` in every
// iteration syncs the device twice a step. Kept as device tensors and
// stacked once at the end, they cost nothing.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t latent = 64;
  torch::nn::Sequential generator(torch::nn::Linear(latent, 256), torch::nn::ReLU(), torch::nn::Linear(256, 2));
  torch::nn::Sequential critic(torch::nn::Linear(2, 256), torch::nn::LeakyReLU(), torch::nn::Linear(256, 1));
  generator->to(device);
  critic->to(device);
  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(1e-4).betas({0.5, 0.9}));
  torch::optim::Adam d_opt(critic->parameters(), torch::optim::AdamOptions(1e-4).betas({0.5, 0.9}));
  torch::Tensor ring;
  torch::load(ring, "ring_samples.pt");
  ring = ring.to(device);
  std::vector<float> d_history, g_history;
  for (int64_t it = 0; it < 20000; ++it) {
    auto real = ring.index_select(0, torch::randint(ring.size(0), {256}, torch::TensorOptions().dtype(torch::kLong).device(device)));
    auto fake = generator->forward(torch::randn({256, latent}, torch::device(device)));
    auto d_loss = critic->forward(fake.detach()).mean() - critic->forward(real).mean();
    d_opt.zero_grad();
    d_loss.backward();
    d_opt.step();
    auto g_loss = -critic->forward(fake).mean();
    g_opt.zero_grad();
    g_loss.backward();
    g_opt.step();
    d_history.push_back(d_loss.detach().mean().item<float>()); // expect: placement-transfer-in-loop
    g_history.push_back(g_loss.detach().item<float>()); // expect: placement-transfer-in-loop
  }
  std::ofstream csv("losses.csv");
  for (size_t i = 0; i < d_history.size(); ++i)
    csv << i << "," << d_history[i] << "," << g_history[i] << "\n";
  return 0;
}
