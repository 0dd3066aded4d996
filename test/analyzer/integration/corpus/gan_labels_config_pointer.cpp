// issue 19 class 3 (device spellings): the target device through a pointer to a config, `to(cfg->device)`.
// BUG (create-then-move). A GAN trainer gets its settings as `const
// GanConfig *cfg`; the discriminator's "real" labels are made with
// `torch::ones` on the host and moved with `.to(cfg->device)` at once, every
// batch. `torch::ones(..., torch::TensorOptions().device(cfg->device))` fills
// them on the device.
#include <torch/torch.h>

#include <iostream>

struct GanConfig {
  torch::Device device{torch::kCPU};
  int64_t latent = 100;
  int64_t batch_size = 64;
  int epochs = 30;
};

void train_discriminator(torch::nn::Sequential &generator, torch::nn::Sequential &discriminator,
                         torch::optim::Adam &optimizer, const GanConfig *cfg) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./mnist").map(torch::data::transforms::Normalize<>(0.5, 0.5))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(cfg->batch_size).workers(2));
  for (int epoch = 0; epoch < cfg->epochs; ++epoch) {
    for (auto &batch : *loader) {
      auto real = batch.data.to(cfg->device).flatten(1);
      const int64_t n = real.size(0);
      auto real_labels = torch::ones({n, 1}).to(cfg->device); // expect: placement-create-then-move
      auto fake = generator->forward(torch::randn({n, cfg->latent}, torch::device(cfg->device)));
      auto fake_labels = torch::zeros({n, 1}, torch::device(cfg->device));
      optimizer.zero_grad();
      auto loss = torch::binary_cross_entropy_with_logits(discriminator->forward(real), real_labels) +
                  torch::binary_cross_entropy_with_logits(discriminator->forward(fake.detach()), fake_labels);
      loss.backward();
      optimizer.step();
    }
  }
}

int main() {
  GanConfig cfg;
  if (torch::cuda::is_available())
    cfg.device = torch::Device(torch::kCUDA);
  torch::nn::Sequential generator(torch::nn::Linear(cfg.latent, 256), torch::nn::LeakyReLU(),
                                  torch::nn::Linear(256, 784), torch::nn::Tanh());
  torch::nn::Sequential discriminator(torch::nn::Linear(784, 256), torch::nn::LeakyReLU(), torch::nn::Linear(256, 1));
  generator->to(cfg.device);
  discriminator->to(cfg.device);
  torch::optim::Adam optimizer(discriminator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  train_discriminator(generator, discriminator, optimizer, &cfg);
  return 0;
}
