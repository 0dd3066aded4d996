// unsynchronized-read: a helper downloads with non_blocking, its caller reads
// the results. CORRECT. As download_helper_read_in_caller.cpp, but the helper
// queues both copies (boxes and scores) with non_blocking=true, so that they
// overlap, and synchronises once before returning them: the caller reads
// complete tensors (the fix of pytorch/pytorch#86264, done once for two
// copies, as the tutorial of pytorch/tutorials#2983 recommends).
#include <torch/torch.h>

#include <cstdio>
#include <utility>

// Both copies in flight together, then one wait for both.
std::pair<torch::Tensor, torch::Tensor> download_detections(const torch::Tensor &boxes, const torch::Tensor &scores) {
  auto boxes_host = boxes.detach().to(torch::kCPU, /*non_blocking=*/true);
  auto scores_host = scores.detach().to(torch::kCPU, /*non_blocking=*/true);
  torch::cuda::synchronize();
  return {boxes_host, scores_host};
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
  auto probabilities = predictions.select(1, 4).sigmoid();
  auto keep = probabilities > 0.5;
  auto detections = download_detections(predictions.narrow(1, 0, 4).index({keep}), probabilities.index({keep}));
  auto boxes = detections.first.accessor<float, 2>();
  auto scores = detections.second.accessor<float, 1>();
  for (int64_t i = 0; i < boxes.size(0); ++i)
    std::printf("box %lld (%.2f): %.1f %.1f %.1f %.1f\n", static_cast<long long>(i), scores[i], boxes[i][0],
                boxes[i][1], boxes[i][2], boxes[i][3]);
  return 0;
}
