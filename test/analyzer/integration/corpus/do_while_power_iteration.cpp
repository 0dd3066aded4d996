// issue 8 class 12: a sync in a do-while loop.
// BUG. Spectral-norm estimate of a layer on `device` by power iteration; the
// loop's condition reads the change with `.item<double>()` on every
// iteration, a device-to-host sync each time when `device` is CUDA.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear layer(1024, 1024);
  torch::load(layer, "layer.pt");
  layer->to(device);
  torch::NoGradGuard no_grad;

  const torch::Tensor weight = layer->weight;
  auto v = torch::randn({weight.size(1)}, weight.options());
  v = v / v.norm();
  torch::Tensor sigma = torch::zeros({}, weight.options());
  double change = 0.0;
  int iterations = 0;
  do {
    auto u = torch::mv(weight, v);
    u = u / u.norm();
    v = torch::mv(weight.t(), u);
    auto next_sigma = v.norm();
    v = v / next_sigma;
    change = (next_sigma - sigma).abs().item<double>(); // expect: placement-transfer-in-loop
    sigma = next_sigma;
  } while (change > 1e-6 && ++iterations < 1000);
  std::cout << "sigma " << sigma.item<double>() << " after " << iterations << " iterations\n";
  return 0;
}
