// issue 8 class 1: 0-dim tensors from indexing, torch::scalar_tensor and
// arithmetic among 0-dim tensors.
// CORRECT. Detection post-processing: the per-class thresholds live in a host
// table; `thresholds[c][0]` indexes down to a 0-dim cpu tensor, `margin` is
// arithmetic among 0-dim tensors and `floor` comes from scalar_tensor. All of
// them may meet the device scores (comparison, in-place sub_, clamp_min,
// add of a full reduction `prior.mean()`).
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct DetectorHeadImpl : torch::nn::Module {
  DetectorHeadImpl(int64_t channels, int64_t classes)
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 64, 3).padding(1)))),
        cls(register_module("cls", torch::nn::Conv2d(64, classes, 1))) {}

  torch::Tensor forward(const torch::Tensor &features) {
    return cls(torch::relu(conv(features))).flatten(2).transpose(1, 2);
  }

  torch::nn::Conv2d conv, cls;
};
TORCH_MODULE(DetectorHead);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t classes = 4;
  DetectorHead head(32, classes);
  head->to(device);
  head->eval();

  // Rows: class, columns: (score threshold, upper threshold).
  torch::Tensor thresholds = torch::tensor({0.30, 0.90, 0.25, 0.80, 0.40, 0.95, 0.35, 0.85}).view({classes, 2});
  torch::Tensor prior = torch::rand({classes});
  torch::Tensor floor = torch::scalar_tensor(1e-4);

  torch::NoGradGuard no_grad;
  auto features = torch::randn({8, 32, 20, 20}, torch::device(device));
  auto scores = head(features).sigmoid();
  scores = scores.add(prior.mean()).clamp_min(floor);

  std::vector<torch::Tensor> kept;
  for (int64_t c = 0; c < classes; ++c) {
    torch::Tensor low = thresholds[c][0];
    torch::Tensor margin = thresholds[c][1] - thresholds[c][0];
    auto class_scores = scores.select(2, c);
    auto keep = class_scores > low;
    class_scores.sub_(margin * 0.1);
    kept.push_back(keep.sum(1));
  }
  auto counts = torch::stack(kept, 1).cpu();
  std::cout << counts << "\n";
  return 0;
}
