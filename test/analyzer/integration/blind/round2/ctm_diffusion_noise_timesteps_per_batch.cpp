// Rule: placement-create-then-move (host factories moved at once, inside a training loop).
// Modelled on: C++ ports of DDPM training steps (denoising-diffusion examples for
// libtorch) which write `torch::randn(x.sizes()).to(device)` as the Python code's
// `torch.randn_like(x)`; the PyTorch performance guide's "create tensors directly
// on the target device".
// Why it is a bug: on every batch the timesteps and the noise are drawn on the host
// and then copied to the device; both must be fresh on each iteration (so not
// hoisted), but they can be drawn on the device with no copy at all.
// Twin: ctm_diffusion_noise_timesteps_per_batch_fixed.cpp (the device in the options, randn_like).
#include <torch/torch.h>

#include <iostream>

struct Points : torch::data::datasets::Dataset<Points> {
  explicit Points(int64_t n) : data(torch::randn({n, 2}) * 0.5 + 1.0) {}
  torch::data::Example<> get(size_t i) override { return {data[i], torch::zeros({})}; }
  torch::optional<size_t> size() const override { return static_cast<size_t>(data.size(0)); }
  torch::Tensor data;
};

struct DenoiserImpl : torch::nn::Module {
  explicit DenoiserImpl(int64_t steps)
      : time_embed(register_module("time_embed", torch::nn::Embedding(steps, 32))),
        net(register_module("net", torch::nn::Sequential(torch::nn::Linear(2 + 32, 128), torch::nn::SiLU(),
                                                         torch::nn::Linear(128, 128), torch::nn::SiLU(),
                                                         torch::nn::Linear(128, 2)))) {}
  torch::Tensor forward(const torch::Tensor &x_t, const torch::Tensor &t) {
    return net->forward(torch::cat({x_t, time_embed(t)}, 1));
  }
  torch::nn::Embedding time_embed;
  torch::nn::Sequential net;
};
TORCH_MODULE(Denoiser);

int main() {
  const int64_t steps = 200;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  auto betas = torch::linspace(1e-4, 0.02, steps, torch::TensorOptions().device(device));
  auto alphas_bar = torch::cumprod(1 - betas, 0);

  Denoiser model(steps);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto loader = torch::data::make_data_loader(Points(10000).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(256));

  for (int epoch = 0; epoch < 10; ++epoch) {
    auto epoch_loss = torch::zeros({}, torch::TensorOptions().device(device));
    int64_t batches = 0;
    for (auto &batch : *loader) {
      auto x0 = batch.data.to(device);
      const int64_t b = x0.size(0);
      auto t = torch::randint(0, steps, {b}, torch::kLong).to(device); // expect: placement-create-then-move
      auto noise = torch::randn(x0.sizes()).to(device); // expect: placement-create-then-move
      auto a = alphas_bar.index_select(0, t).unsqueeze(1);
      auto x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise;
      auto loss = torch::mse_loss(model(x_t, t), noise);
      opt.zero_grad();
      loss.backward();
      opt.step();
      epoch_loss += loss.detach();
      ++batches;
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss.item<double>() / batches << "\n";
  }
  return 0;
}
