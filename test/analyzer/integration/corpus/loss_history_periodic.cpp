// issue 8 classes 13 and 16: a copy of a device value kept for logging, periodically.
// CORRECT. The loss curve is recorded every 50 steps, under
// `if (step % 50 == 0)`: one device-to-host copy per fifty steps, which is
// what the logging needs. Look-alike of loss_history_cpu_every_step.cpp.
#include <torch/torch.h>

#include <fstream>
#include <vector>

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl()
      : net(register_module("net", torch::nn::Sequential(
                                       torch::nn::Linear(100, 256),
                                       torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
                                       torch::nn::Linear(256, 784), torch::nn::Tanh()))) {}
  torch::Tensor forward(const torch::Tensor &z) { return net->forward(z); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Generator);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Generator generator;
  torch::nn::Sequential discriminator(torch::nn::Linear(784, 256), torch::nn::LeakyReLU(), torch::nn::Linear(256, 1));
  generator->to(device);
  discriminator->to(device);
  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam d_opt(discriminator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist")
          .map(torch::data::transforms::Normalize<>(0.5, 0.5))
          .map(torch::data::transforms::Stack<>()),
      64);

  std::vector<torch::Tensor> d_history;
  int64_t step = 0;
  for (int epoch = 0; epoch < 30; ++epoch) {
    for (auto &batch : *loader) {
      auto real = batch.data.view({-1, 784}).to(device);
      auto noise = torch::randn({real.size(0), 100}, torch::device(device));
      auto fake = generator(noise);
      auto real_logits = discriminator->forward(real);
      auto fake_logits = discriminator->forward(fake.detach());
      auto d_loss = torch::binary_cross_entropy_with_logits(real_logits, torch::ones_like(real_logits)) +
                    torch::binary_cross_entropy_with_logits(fake_logits, torch::zeros_like(fake_logits));
      d_opt.zero_grad();
      d_loss.backward();
      d_opt.step();

      auto g_logits = discriminator->forward(fake);
      auto g_loss = torch::binary_cross_entropy_with_logits(g_logits, torch::ones_like(g_logits));
      g_opt.zero_grad();
      g_loss.backward();
      g_opt.step();
      if (step++ % 50 == 0) {
        d_history.push_back(d_loss.detach().to(torch::kCPU));
      }
    }
  }
  std::ofstream out("d_loss.csv");
  for (const auto &value : d_history) {
    out << value.item<float>() << "\n";
  }
  return 0;
}
