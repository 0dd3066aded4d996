// unsynchronized-read: the loss downloaded with non_blocking for logging and
// read at once. BUG. Every 20 steps the trainer copies the loss to the host
// with non_blocking=true, so as not to stall the GPU, and prints item() of
// the copy on the next line: nothing has waited for the copy, so the logged
// value is whatever the pinned buffer held (pytorch/pytorch#86264 "to("cpu",
// non_blocking=True) work weird"; the review of NVIDIA/physicsnemo#1742: "no
// explicit synchronisation between the non-blocking D2H copy and .item()").
// Look-alike: download_loss_logged_after_sync.cpp.
#include <torch/torch.h>

#include <cstdio>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl()
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(32, 128), torch::nn::ReLU(),
                                                            torch::nn::Linear(128, 1)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Regressor);

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));
  const int64_t log_every = 20;
  for (int64_t step = 0; step < 2000; ++step) {
    auto inputs = torch::randn({256, 32}, torch::device(device));
    auto targets = inputs.sum(1, /*keepdim=*/true).sin();
    auto loss = torch::mse_loss(model(inputs), targets);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % log_every == 0) {
      auto loss_host = loss.detach().to(torch::kCPU, /*non_blocking=*/true);
      std::printf("step %lld loss %.5f\n", static_cast<long long>(step), loss_host.item<float>()); // expect: placement-unsynchronized-read
    }
  }
  return 0;
}
