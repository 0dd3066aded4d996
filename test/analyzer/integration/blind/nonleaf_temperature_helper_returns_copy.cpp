// Class: placement-non-leaf-parameter, with the bug.
// Modelled on: temperature scaling for calibration (Guo et al. 2017; the
// gpleiss/temperature_scaling reference code) ported to C++, with a small
// helper that makes a scalar parameter, marks it requires_grad_() and
// returns it moved to the device.
// Why it is a bug: make_scalar_param returns t.to(d), a copy of the leaf:
// the optimizer is given a non-leaf, its grad() is never set (the check in
// main prints "no gradient") and the temperature stays at its start value.
// Twin: nonleaf_temperature_helper_returns_copy_fixed.cpp
#include <torch/torch.h>

#include <iostream>

namespace calib {

torch::Tensor make_scalar_param(double init, torch::Device d) {
  auto t = torch::full({1}, init);
  t.requires_grad_();
  return t.to(d); // expect: placement-non-leaf-parameter
}

double nll(const torch::Tensor& logits, const torch::Tensor& labels) {
  return torch::nn::functional::cross_entropy(logits, labels).item<double>();
}

}  // namespace calib

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto logits = torch::randn({2000, 10}, torch::device(device)) * 3.0;
  auto labels = torch::randint(0, 10, {2000}, torch::TensorOptions(torch::kLong).device(device));
  std::cout << "nll before " << calib::nll(logits, labels) << '\n';

  auto temperature = calib::make_scalar_param(1.5, device);
  torch::optim::SGD opt({temperature}, torch::optim::SGDOptions(0.01));
  for (int it = 0; it < 100; ++it) {
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(logits / temperature, labels);
    loss.backward();
    opt.step();
  }
  if (!temperature.grad().defined()) std::cout << "no gradient reached the temperature\n";
  std::cout << "T = " << temperature.item<double>()
            << ", nll after " << calib::nll(logits / temperature.detach(), labels) << '\n';
}
