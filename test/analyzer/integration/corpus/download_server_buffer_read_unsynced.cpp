// unsynchronized-read: an inference server copies the scores into its pinned
// output buffer with copy_(src, /*non_blocking=*/true) and hands out the
// bytes at once. BUG. data_ptr() of the buffer is read right after the copy
// is queued; the reply holds the previous request's scores or a mix
// (pytorch/pytorch#127612, "Data on CPUs Are Not Synchronized Before
// Subsequent Operations"; #19625's `y.copy_(x, non_blocking=True)` into a
// pinned `y`; the review of NVIDIA/physicsnemo#1742: the non_blocking copy_
// into a pinned buffer then item() "reads pinned host memory directly
// without any CUDA barrier").
// Look-alike: download_server_buffer_event_synced.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class ScoringServer {
public:
  ScoringServer(torch::nn::Sequential model, torch::Device device, int64_t max_batch, int64_t classes)
      : model_(std::move(model)), device_(device),
        scores_host_(torch::empty({max_batch, classes}, torch::TensorOptions().pinned_memory(true))) {
    model_->to(device_);
    model_->eval();
  }

  std::vector<float> score(const torch::Tensor &requests) {
    torch::NoGradGuard no_grad;
    auto probabilities = torch::softmax(model_->forward(requests.to(device_)), 1);
    auto reply = scores_host_.narrow(0, 0, requests.size(0));
    reply.copy_(probabilities, /*non_blocking=*/true);
    const float *data = reply.data_ptr<float>(); // expect: placement-unsynchronized-read
    return std::vector<float>(data, data + reply.numel());
  }

private:
  torch::nn::Sequential model_;
  torch::Device device_;
  torch::Tensor scores_host_;
};

int main() {
  if (!torch::cuda::is_available())
    return 0;
  ScoringServer server(torch::nn::Sequential(torch::nn::Linear(64, 256), torch::nn::GELU(), torch::nn::Linear(256, 16)),
                       torch::Device(torch::kCUDA), 128, 16);
  for (int request = 0; request < 100; ++request) {
    std::vector<float> payload(32 * 64); // the request's features, as the client sent them
    for (size_t i = 0; i < payload.size(); ++i)
      payload[i] = static_cast<float>((i * 31 + request) % 97) / 97.0f;
    auto scores = server.score(torch::tensor(payload).view({32, 64}));
    std::cout << "request " << request << ": first score " << scores.front() << "\n";
  }
  return 0;
}
