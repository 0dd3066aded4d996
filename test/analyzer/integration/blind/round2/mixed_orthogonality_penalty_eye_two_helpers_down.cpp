// Rule: placement-mixed-device (a device-less factory inside a penalty helper).
// Modelled on: orthogonal-regularisation losses ported from Python (BigGAN's
// ortho_reg, "soft orthogonality" in re-ID and GAN projects), where `torch::eye(n)`
// without options works on the CPU and fails with "Expected all tensors to be on
// the same device" on a GPU.
// Why it is a bug: gram_deviation(), two calls below the training loop, subtracts
// `torch::eye(rows)` (made on the host: no options) from W W^T of a weight that the
// moved model keeps on the device; the subtraction throws on a GPU machine.
// Twin: none (the eye made with `w.options()` would be the fix).
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <string>

namespace reg {

torch::Tensor gram_deviation(const torch::Tensor &w) {
  const int64_t rows = w.size(0);
  auto gram = torch::mm(w, w.t());
  return (gram - torch::eye(rows)).pow(2).sum(); // expect: placement-mixed-device
}

torch::Tensor ortho_penalty(torch::nn::ModuleList &blocks) {
  torch::Tensor total;
  for (const auto &block : *blocks) {
    auto lin = block->as<torch::nn::Linear>();
    if (!lin) continue;
    auto term = gram_deviation(lin->weight);
    total = total.defined() ? total + term : term;
  }
  return total;
}

torch::Tensor objective(torch::nn::ModuleList &blocks, const torch::Tensor &logits, const torch::Tensor &target,
                        double beta) {
  return torch::nn::functional::cross_entropy(logits, target) + beta * ortho_penalty(blocks);
}

} // namespace reg

struct EncoderImpl : torch::nn::Module {
  EncoderImpl(int64_t in, int64_t hidden, int64_t classes) {
    blocks = register_module("blocks", torch::nn::ModuleList(torch::nn::Linear(in, hidden), torch::nn::ReLU(),
                                                             torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                                                             torch::nn::Linear(hidden, classes)));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (const auto &m : *blocks) x = m->as<torch::nn::Linear>() ? m->as<torch::nn::Linear>()->forward(x) : torch::relu(x);
    return x;
  }
  torch::nn::ModuleList blocks{nullptr};
};
TORCH_MODULE(Encoder);

int main(int argc, char **argv) {
  const double beta = argc > 1 ? std::stod(argv[1]) : 1e-4;
  const auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Encoder enc(128, 256, 20);
  enc->to(device);
  torch::optim::SGD opt(enc->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  auto features = torch::randn({512, 128}, torch::TensorOptions().device(device));
  auto labels = torch::randint(0, 20, {512}, torch::TensorOptions().device(device).dtype(torch::kLong));
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 0; epoch < 5; ++epoch) {
    opt.zero_grad();
    auto loss = reg::objective(enc->blocks, enc(features), labels, beta);
    loss.backward();
    opt.step();
  }
  const auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "trained 5 epochs in " << secs << " s\n";
  return 0;
}
