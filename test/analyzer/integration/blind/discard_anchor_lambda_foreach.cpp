// Class: placement-discarded-transfer, with the bug (and the mixed-device
// failure it causes).
// Modelled on: object-detection ports to libtorch (SSD/RetinaNet anchor
// generators in C++ on GitHub) where per-level anchors are kept in a
// std::vector and "moved" to the device with std::for_each and a lambda.
// Why it is a bug: the lambda takes each anchor tensor by reference but
// discards the result of t.to(device), so the vector keeps cpu tensors;
// decoding them against the regression output on the GPU fails.
// Twin: discard_anchor_lambda_foreach_fixed.cpp
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <vector>

namespace detect {

std::vector<torch::Tensor> grid_anchors(const std::vector<int64_t>& strides, int64_t image) {
  std::vector<torch::Tensor> levels;
  for (int64_t s : strides) {
    int64_t cells = image / s;
    auto centers = (torch::arange(cells, torch::kFloat) + 0.5) * s;
    auto cy = centers.view({-1, 1}).expand({cells, cells}).reshape({-1});
    auto cx = centers.view({1, -1}).expand({cells, cells}).reshape({-1});
    auto half = torch::full_like(cx, 2.0 * s);
    levels.push_back(torch::stack({cx - half, cy - half, cx + half, cy + half}, 1));
  }
  return levels;
}

torch::Tensor decode(const torch::Tensor& anchors, const torch::Tensor& deltas) {
  auto wh = anchors.slice(1, 2, 4) - anchors.slice(1, 0, 2);
  auto ctr = anchors.slice(1, 0, 2) + 0.5 * wh;
  auto new_ctr = ctr + deltas.slice(1, 0, 2) * wh; // expect: placement-mixed-device
  auto new_wh = wh * deltas.slice(1, 2, 4).exp();
  return torch::cat({new_ctr - 0.5 * new_wh, new_ctr + 0.5 * new_wh}, 1);
}

}  // namespace detect

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA)
                                                     : torch::Device(torch::kCPU);
  const std::vector<int64_t> strides{8, 16, 32};
  auto anchors = detect::grid_anchors(strides, 256);
  std::for_each(anchors.begin(), anchors.end(), [&](torch::Tensor& t) {
    t.to(device); // expect: placement-discarded-transfer
  });
  auto all_anchors = torch::cat(anchors);

  torch::nn::Conv2d reg_head(torch::nn::Conv2dOptions(16, 4, 1));
  reg_head->to(device);
  torch::NoGradGuard no_grad;
  auto feature = torch::randn({1, 16, 32, 32}, torch::device(device));
  auto deltas = reg_head->forward(feature).permute({0, 2, 3, 1}).reshape({-1, 4});
  std::cout << "anchors " << all_anchors.size(0) << ", deltas " << deltas.size(0) << '\n';

  auto first_level = deltas.narrow(0, 0, anchors[0].size(0));
  auto boxes = detect::decode(anchors[0], first_level);
  std::cout << "decoded " << boxes.sizes() << " on " << boxes.device() << '\n';
}
