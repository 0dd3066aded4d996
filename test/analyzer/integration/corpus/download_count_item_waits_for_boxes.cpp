// unsynchronized-read: a blocking read of a device tensor after a non_blocking
// download. CORRECT. The detector queues the download of every candidate box
// (sorted by score) with non_blocking=true, then reads how many passed the
// threshold with item() of a device tensor: item() copies on the same stream
// and waits, so the boxes queued before it have landed when the loop reads
// the first `kept` rows (the CUDA semantics notes: work on one stream runs in
// order; pytorch/pytorch#86264's answer: a blocking copy synchronises).
// Look-alike of download_helper_read_in_caller.cpp (boxes walked with an
// accessor).
#include <torch/torch.h>

#include <cstdio>

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Conv2d head(torch::nn::Conv2dOptions(256, 5, 1));
  head->to(device);
  torch::NoGradGuard no_grad;
  auto features = torch::randn({1, 256, 32, 32}, torch::device(device));
  auto predictions = head->forward(features).flatten(2).squeeze(0).t(); // one row a cell: x, y, w, h, logit
  auto scores = predictions.select(1, 4).sigmoid();
  auto order = scores.argsort(0, /*descending=*/true);
  auto boxes_host = predictions.narrow(1, 0, 4).index_select(0, order).to(torch::kCPU, /*non_blocking=*/true);
  const int64_t kept = (scores > 0.5).sum().item<int64_t>();
  auto boxes = boxes_host.accessor<float, 2>();
  for (int64_t i = 0; i < kept; ++i)
    std::printf("box %lld: %.1f %.1f %.1f %.1f\n", static_cast<long long>(i), boxes[i][0], boxes[i][1], boxes[i][2],
                boxes[i][3]);
  return 0;
}
