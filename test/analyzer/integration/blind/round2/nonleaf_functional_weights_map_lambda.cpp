// Rule: placement-non-leaf-parameter (copies made by an initialiser lambda, kept in
// a std::map, handed to an optimizer and their grad() read).
// Modelled on: functional-style networks in C++ (meta-learning / hypernetwork code
// that keeps weights in a name -> tensor map instead of a Module), and
// pytorch/pytorch#8287 and #13113 (a tensor made with requires_grad, then moved
// with `.cuda()`, never gets a grad: the copy is not a leaf).
// Why it is a bug: init() marks `(randn(shape) * scale)` with requires_grad_() and
// returns its moved copy; every map entry is such a copy on a GPU machine. SGD is
// given them (libtorch throws "can't optimize a non-leaf Tensor"), and the
// gradient check reads grad() of one, which backward() never sets.
// Twin: none (`randn(shape, options.device(device)) * scale` then requires_grad_()
// would be the fix).
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using Weights = std::map<std::string, torch::Tensor>;

torch::Tensor mlp(const Weights &w, const torch::Tensor &x) {
  auto h = torch::relu(torch::addmm(w.at("b1"), x, w.at("w1")));
  return torch::addmm(w.at("b2"), h, w.at("w2"));
}

int main(int argc, char **argv) {
  const bool verbose = argc > 1;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto init = [&device](std::vector<int64_t> shape, double scale) {
    return (torch::randn(shape) * scale).requires_grad_().to(device); // expect: placement-non-leaf-parameter
  };
  const int64_t in = 8, hidden = 32, out = 1;
  Weights weights;
  weights["w1"] = init({in, hidden}, 1.0 / std::sqrt(static_cast<double>(in)));
  weights["b1"] = init({hidden}, 0.0);
  weights["w2"] = init({hidden, out}, 1.0 / std::sqrt(static_cast<double>(hidden)));
  weights["b2"] = init({out}, 0.0);

  std::vector<torch::Tensor> params;
  for (const auto &[name, t] : weights) params.push_back(t);
  torch::optim::SGD opt(params, torch::optim::SGDOptions(0.05));

  auto x = torch::randn({256, in}, torch::TensorOptions().device(device));
  auto y = torch::sin(x.sum(1, /*keepdim=*/true));
  for (int step = 0; step < 500; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(mlp(weights, x), y);
    loss.backward();
    if (step == 0) {
      const auto &g = weights.at("w1").grad();
      std::cout << "w1 grad " << (g.defined() ? "present" : "MISSING") << "\n";
    }
    opt.step();
    if (verbose && step % 100 == 0) std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
