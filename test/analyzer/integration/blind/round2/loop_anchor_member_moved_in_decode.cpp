// Rule: placement-transfer-in-loop (a field moved on every call of a method reached
// through another method, called per frame).
// Modelled on: C++ SSD/RetinaNet/YOLO post-processing classes (anchor or prior
// boxes generated once in the constructor, decoded per frame), where the Python
// original registered the priors as a buffer and the port keeps a plain member.
// Why it is a bug: the anchors never change, but Detector::decode(), called by
// predict() for every frame of the stream, copies `anchors_` from the host to the
// device again on every call; making them on the device once (or registering them
// as a buffer of a module) removes the copy.
// Twin: none (moving `anchors_` once in the constructor would be the fix).
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <tuple>
#include <vector>

namespace det {

torch::Tensor make_anchors(int64_t grid, const std::vector<double> &scales) {
  auto centers = (torch::arange(grid, torch::kFloat) + 0.5) / grid;
  auto cy = centers.view({grid, 1}).expand({grid, grid}).reshape({-1, 1});
  auto cx = centers.view({1, grid}).expand({grid, grid}).reshape({-1, 1});
  std::vector<torch::Tensor> per_scale;
  for (double s : scales) per_scale.push_back(torch::cat({cx, cy, torch::full_like(cx, s), torch::full_like(cy, s)}, 1));
  return torch::cat(per_scale, 0); // [A, 4] as (cx, cy, w, h)
}

class Detector {
 public:
  Detector(torch::nn::Sequential head, int64_t grid)
      : head_(std::move(head)), anchors_(make_anchors(grid, {0.1, 0.25, 0.5})) {}

  std::tuple<torch::Tensor, torch::Tensor> predict(const torch::Tensor &features) {
    auto out = head_->forward(features).view({-1, 5}); // 4 box deltas + 1 score per anchor
    auto boxes = decode(out.slice(1, 0, 4));
    auto scores = torch::sigmoid(out.select(1, 4));
    return {boxes, scores};
  }

 private:
  torch::Tensor decode(const torch::Tensor &deltas) const {
    auto anchors = anchors_.to(deltas.device()); // expect: placement-transfer-in-loop
    auto centers = anchors.slice(1, 0, 2) + deltas.slice(1, 0, 2) * anchors.slice(1, 2, 4);
    auto sizes = anchors.slice(1, 2, 4) * torch::exp(deltas.slice(1, 2, 4));
    return torch::cat({centers - sizes / 2, centers + sizes / 2}, 1);
  }

  torch::nn::Sequential head_;
  torch::Tensor anchors_;
};

} // namespace det

int main() {
  const int64_t grid = 16, anchors_per_cell = 3;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  torch::nn::Sequential head(torch::nn::Linear(64, 128), torch::nn::ReLU(),
                             torch::nn::Linear(128, grid * grid * anchors_per_cell * 5));
  head->to(device);
  det::Detector detector(head, grid);

  torch::NoGradGuard no_grad;
  auto t0 = std::chrono::steady_clock::now();
  int64_t frames = 0;
  auto kept = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (; frames < 300; ++frames) {
    auto features = torch::randn({1, 64}, torch::TensorOptions().device(device));
    auto [boxes, scores] = detector.predict(features);
    kept += (scores > 0.5).sum();
  }
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << frames << " frames, " << kept.item<int64_t>() << " boxes kept, " << ms / frames << " ms/frame\n";
  return 0;
}
