// issue 8 class 12: a sync inside a TORCH_CHECK in the loop.
// BUG. Every step asserts that the loss is finite with
// `TORCH_CHECK(torch::isfinite(loss).item<bool>(), ...)`: the argument is
// evaluated on every iteration, a device-to-host sync per step on a GPU.
#include <torch/torch.h>

#include <iostream>

struct VaeImpl : torch::nn::Module {
  VaeImpl()
      : enc(register_module("enc", torch::nn::Linear(784, 400))),
        mu(register_module("mu", torch::nn::Linear(400, 20))),
        logvar(register_module("logvar", torch::nn::Linear(400, 20))),
        dec1(register_module("dec1", torch::nn::Linear(20, 400))),
        dec2(register_module("dec2", torch::nn::Linear(400, 784))) {}

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = torch::relu(enc(x));
    auto m = mu(h), lv = logvar(h);
    auto z = m + torch::randn_like(m) * torch::exp(0.5 * lv);
    return {torch::sigmoid(dec2(torch::relu(dec1(z)))), m, lv};
  }

  torch::nn::Linear enc, mu, logvar, dec1, dec2;
};
TORCH_MODULE(Vae);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Vae model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 128);

  int64_t step = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.view({-1, 784}).to(device);
      auto [recon, m, lv] = model(x);
      auto bce = torch::binary_cross_entropy(recon, x, {}, at::Reduction::Sum);
      auto kld = -0.5 * torch::sum(1 + lv - m.pow(2) - lv.exp());
      auto loss = (bce + kld) / x.size(0);
      TORCH_CHECK(torch::isfinite(loss).item<bool>(), "loss is not finite at step ", step); // expect: placement-transfer-in-loop
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      ++step;
    }
  }
  torch::save(model, "vae.pt");
  return 0;
}
