// Rule: placement-unsynchronized-read (a list of non_blocking downloads read by a
// std::transform lambda).
// Modelled on: per-layer gradient-norm monitors of C++ trainers (TensorBoard-style
// histograms logged every N steps), written to "not stall the GPU" by queueing all
// downloads first; the failure mode of pytorch/pytorch#86264 (a non_blocking copy
// to the host read before it lands gives zeros or stale values).
// Why it is a bug: log_grad_norms() queues one `to(kCPU, non_blocking=true)` per
// parameter into `norms`, then std::transform's lambda reads each with item()
// before anything synchronises, so the logged norms may be stale or zero.
// Twin: unsync_grad_norms_transform_lambda_fixed.cpp (synchronises before the transform).
#include <torch/torch.h>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

struct AutoencoderImpl : torch::nn::Module {
  AutoencoderImpl() {
    enc = register_module("enc", torch::nn::Sequential(torch::nn::Linear(64, 16), torch::nn::ReLU()));
    dec = register_module("dec", torch::nn::Sequential(torch::nn::Linear(16, 64)));
  }
  torch::Tensor forward(const torch::Tensor &x) { return dec->forward(enc->forward(x)); }
  torch::nn::Sequential enc{nullptr}, dec{nullptr};
};
TORCH_MODULE(Autoencoder);

void log_grad_norms(Autoencoder &model, int64_t step) {
  std::vector<std::string> names;
  std::vector<torch::Tensor> norms;
  for (const auto &item : model->named_parameters()) {
    if (!item.value().grad().defined()) continue;
    names.push_back(item.key());
    norms.push_back(item.value().grad().norm().to(torch::kCPU, /*non_blocking=*/true));
  }
  std::vector<float> values(norms.size());
  std::transform(norms.begin(), norms.end(), values.begin(), [](const torch::Tensor &n) {
    return n.item<float>(); // expect: placement-unsynchronized-read
  });
  for (size_t i = 0; i < names.size(); ++i)
    std::cout << "step " << step << " " << std::setw(14) << names[i] << " grad-norm " << values[i] << "\n";
}

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);
  Autoencoder model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  auto data = torch::randn({2048, 64}, torch::TensorOptions().device(device));
  for (int64_t step = 0; step < 400; ++step) {
    auto batch = data.narrow(0, (step * 64) % 2048, 64);
    opt.zero_grad();
    auto loss = torch::mse_loss(model(batch), batch);
    loss.backward();
    if (step % 100 == 0) log_grad_norms(model, step);
    opt.step();
  }
  return 0;
}
