// pageable-non-blocking: an inference server collates the pending requests,
// converts the batch to half precision on the host (to(kHalf)) and uploads
// it with non_blocking. BUG. torch::stack allocates the batch and to(kHalf)
// converts it into a new tensor, each in ordinary (pageable) memory, so the
// non_blocking copy is staged synchronously and the request loop stalls on
// every batch (issue 23: "the result of stack(...).half() is pageable";
// pytorch/pytorch#79933: a conversion gives pageable memory even where the
// copy asked for non_blocking; pytorch/tutorials#2983, the pin_memory and
// non_blocking tutorial). Look-alike: upload_collate_half_pinned.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Request {
  std::vector<float> features; // 256 values from the feature extractor
  int64_t id;
};

// Stands for the queue of requests that arrived since the last batch.
std::vector<Request> drain_queue(int round) {
  std::vector<Request> pending(32);
  for (size_t i = 0; i < pending.size(); ++i) {
    pending[i].features.assign(256, static_cast<float>((i + round) % 17) / 17.0f);
    pending[i].id = static_cast<int64_t>(round * 32 + i);
  }
  return pending;
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential scorer(torch::nn::Linear(256, 512), torch::nn::ReLU(), torch::nn::Linear(512, 8));
  scorer->to(device, torch::kHalf);
  scorer->eval();
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> predictions;
  for (int round = 0; round < 1000; ++round) {
    std::vector<Request> pending = drain_queue(round);
    std::vector<torch::Tensor> rows;
    for (const Request &request : pending)
      rows.push_back(torch::tensor(request.features));
    auto batch = torch::stack(rows).to(torch::kHalf);
    auto input = batch.to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    predictions.push_back(scorer->forward(input).argmax(1));
  }
  // Read once, after the last batch.
  auto classes = torch::cat(predictions).cpu();
  std::cout << classes.size(0) << " requests scored, " << classes.eq(0).sum().item<int64_t>()
            << " in class 0\n";
  return 0;
}
