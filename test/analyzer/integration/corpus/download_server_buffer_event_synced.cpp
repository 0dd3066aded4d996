// unsynchronized-read: an inference server copies the scores into its pinned
// output buffer with copy_(src, /*non_blocking=*/true). CORRECT. As
// download_server_buffer_read_unsynced.cpp, but an at::cuda::CUDAEvent is
// recorded after the copy, the request is logged meanwhile, and the event's
// synchronize() waits for the copy before data_ptr() is read: the copy
// overlaps the logging, and the read comes after it (pytorch/pytorch#127612:
// a non_blocking download must be waited for before the host reads it; the
// rule's page lists "an event recorded after the copy").
#include "cuda_stream_api.h"

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
    copied_.record();
    std::cout << "scored " << requests.size(0) << " requests\n";
    copied_.synchronize();
    const float *data = reply.data_ptr<float>();
    return std::vector<float>(data, data + reply.numel());
  }

private:
  torch::nn::Sequential model_;
  torch::Device device_;
  torch::Tensor scores_host_;
  at::cuda::CUDAEvent copied_;
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
