// unsynchronized-read: the loss downloaded with non_blocking for logging.
// CORRECT. As download_loss_logged_before_sync.cpp, but the trainer waits
// for the copy with torch::cuda::synchronize() before item(): the fix the
// answer to pytorch/pytorch#86264 gives ("use torch.cuda.synchronize()
// instead of time.sleep(1) to properly synchronize").
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
      torch::cuda::synchronize();
      std::printf("step %lld loss %.5f\n", static_cast<long long>(step), loss_host.item<float>());
    }
  }
  return 0;
}
