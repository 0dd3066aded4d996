// issue 19 class 11 (non-leaf parameters handed over in other ways), correct look-alike.
// CORRECT. As param_vector_from_moved_copies.cpp, but the weights are created
// and initialised on the device and marked requires_grad there, so the
// vector holds leaves.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const std::vector<int64_t> sizes = {784, 256, 128, 10};
  std::vector<torch::Tensor> weights;
  for (size_t i = 0; i + 1 < sizes.size(); ++i) {
    auto w = torch::empty({sizes[i], sizes[i + 1]}, torch::TensorOptions().device(device));
    {
      torch::NoGradGuard no_grad;
      w.normal_(0.0, std::sqrt(2.0 / static_cast<double>(sizes[i])));
    }
    weights.push_back(w.requires_grad_());
  }
  std::vector<torch::Tensor> params = weights;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.05));

  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 128);
  for (auto &batch : *loader) {
    auto h = batch.data.to(device).flatten(1);
    for (size_t i = 0; i < params.size(); ++i) {
      h = h.matmul(params[i]);
      if (i + 1 < params.size())
        h = torch::relu(h);
    }
    auto loss = torch::nn::functional::cross_entropy(h, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
