// issue 19 class 2 (a conversion between the factory and the move): arange -> to(kFloat) -> cuda().
// BUG (create-then-move). A NeRF-style positional encoding on the GPU path of
// a renderer: the frequency exponents come from `torch::arange(n)`, are cast
// with `.to(torch::kFloat)` and sent with `.cuda()`. The cast in between
// does not stop them from being made on the GPU. The GPU path is guarded by
// `cuda::is_available()`.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

torch::Tensor encode_positions(const torch::Tensor &xyz, const torch::Tensor &freq_bands) {
  auto scaled = xyz.unsqueeze(-1) * freq_bands;          // [N, 3, F]
  auto enc = torch::cat({torch::sin(scaled), torch::cos(scaled)}, -1);
  return torch::cat({xyz, enc.flatten(1)}, 1);
}

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "this renderer needs a GPU\n";
    return 1;
  }
  const int64_t num_freqs = 10;
  torch::nn::Sequential mlp(torch::nn::Linear(3 + 3 * 2 * num_freqs, 256), torch::nn::ReLU(),
                            torch::nn::Linear(256, 256), torch::nn::ReLU(), torch::nn::Linear(256, 4));
  mlp->to(torch::kCUDA);
  auto exponents = torch::arange(num_freqs).to(torch::kFloat).cuda(); // expect: placement-create-then-move
  auto freq_bands = torch::pow(2.0, exponents) * M_PI;
  torch::Tensor points;
  torch::load(points, "ray_samples.pt");
  torch::NoGradGuard no_grad;
  auto rgb_sigma = mlp->forward(encode_positions(points.cuda(), freq_bands));
  std::cout << rgb_sigma.sizes() << "\n";
  return 0;
}
