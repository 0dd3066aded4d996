// unsynchronized-read: a helper downloads with non_blocking, its caller reads
// the result. BUG. Detection post-processing keeps the boxes that pass the
// score threshold and downloads them through `to_host_async`, a helper that
// copies with non_blocking=true "so the GPU does not stall"; the caller walks
// the boxes with an accessor at once, before anything waited for the copy
// (pytorch/pytorch#86264; the C++ shape of pytorch/pytorch#15006, whose
// author downloads a TorchScript model's outputs with non_blocking to overlap
// them). Look-alike: download_helper_synchronizes.cpp.
#include <torch/torch.h>

#include <cstdio>

// Copies to the host without waiting for the GPU.
torch::Tensor to_host_async(const torch::Tensor &tensor) {
  return tensor.detach().to(torch::kCPU, /*non_blocking=*/true);
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Conv2d head(torch::nn::Conv2dOptions(256, 5, 1));
  head->to(device);
  torch::NoGradGuard no_grad;
  auto features = torch::randn({1, 256, 32, 32}, torch::device(device));
  auto predictions = head->forward(features).flatten(2).squeeze(0).t(); // one row a cell: x, y, w, h, logit
  auto keep = predictions.select(1, 4).sigmoid() > 0.5;
  auto kept = to_host_async(predictions.narrow(1, 0, 4).index({keep}));
  auto boxes = kept.accessor<float, 2>(); // expect: placement-unsynchronized-read
  for (int64_t i = 0; i < boxes.size(0); ++i)
    std::printf("box %lld: %.1f %.1f %.1f %.1f\n", static_cast<long long>(i), boxes[i][0], boxes[i][1],
                boxes[i][2], boxes[i][3]);
  return 0;
}
