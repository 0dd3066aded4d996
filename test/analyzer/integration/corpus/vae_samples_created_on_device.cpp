// issue 19 class 4 (assignment forms), correct look-alike.
// CORRECT. As vae_samples_variable_moved.cpp, but the latents are drawn on the
// device.
#include <torch/torch.h>

#include <iostream>

struct VAEImpl : torch::nn::Module {
  VAEImpl(int64_t image, int64_t hidden, int64_t latent)
      : fc1(register_module("fc1", torch::nn::Linear(image, hidden))),
        fc_mu(register_module("fc_mu", torch::nn::Linear(hidden, latent))),
        fc_logvar(register_module("fc_logvar", torch::nn::Linear(hidden, latent))),
        fc3(register_module("fc3", torch::nn::Linear(latent, hidden))),
        fc4(register_module("fc4", torch::nn::Linear(hidden, image))) {}
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = torch::relu(fc1(x));
    auto mu = fc_mu(h), logvar = fc_logvar(h);
    auto z = mu + torch::randn_like(mu) * torch::exp(0.5 * logvar);
    return {decode(z), mu, logvar};
  }
  torch::Tensor decode(const torch::Tensor &z) { return torch::sigmoid(fc4(torch::relu(fc3(z)))); }
  torch::nn::Linear fc1, fc_mu, fc_logvar, fc3, fc4;
};
TORCH_MODULE(VAE);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t latent = 20;
  VAE model(784, 400, latent);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 128);
  for (int epoch = 1; epoch <= 10; ++epoch) {
    model->train();
    for (auto &batch : *loader) {
      auto x = batch.data.to(device).view({-1, 784});
      auto [recon, mu, logvar] = model->forward(x);
      auto bce = torch::binary_cross_entropy(recon, x, {}, torch::Reduction::Sum);
      auto kld = -0.5 * torch::sum(1 + logvar - mu.pow(2) - logvar.exp());
      optimizer.zero_grad();
      (bce + kld).backward();
      optimizer.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    torch::Tensor samples = torch::randn({64, latent}, torch::TensorOptions().device(device));
    auto images = model->decode(samples).cpu().view({64, 1, 28, 28});
    torch::save(images, "samples_" + std::to_string(epoch) + ".pt");
  }
  return 0;
}
