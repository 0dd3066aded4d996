// issue 19 class 2 (a conversion between the factory and the move): .options() taken at the end of the chain.
// BUG (create-then-move). A detection head decodes anchor indices; the author
// wants "int64 on the device" options and gets them by making a one-element
// tensor on the host, casting it, moving it and taking `.options()`. The
// tensor exists only for its options: `torch::TensorOptions().dtype(kLong)
// .device(d)` says the same without an allocation and a copy.
#include <torch/torch.h>

#include <iostream>

std::tuple<torch::Tensor, torch::Tensor> top_anchors(const torch::Tensor &scores, int64_t k) {
  const auto long_opts = torch::zeros({1}).to(torch::kLong).to(scores.device()).options(); // expect: placement-create-then-move
  auto flat = scores.flatten(1);
  auto best = flat.topk(k, 1);
  auto per_cell = torch::arange(flat.size(1), long_opts).remainder(9);
  return {std::get<0>(best), per_cell.index_select(0, std::get<1>(best).flatten())};
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Conv2d head(torch::nn::Conv2dOptions(256, 9, 3).padding(1));
  head->to(device);
  torch::Tensor features;
  torch::load(features, "fpn_p3.pt");
  torch::NoGradGuard no_grad;
  auto scores = torch::sigmoid(head->forward(features.to(device)));
  auto [values, anchors] = top_anchors(scores, 100);
  std::cout << values.sizes() << " " << anchors.sizes() << "\n";
  return 0;
}
