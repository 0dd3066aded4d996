// unsynchronized-read: a synchronisation on every path before the read.
// CORRECT. As download_sync_only_when_profiling.cpp, but the
// torch::cuda::synchronize() is taken out of the profiling branch and made
// before it, so the log reads the landed copy whether profiling is on or off
// (the fix of pytorch/pytorch#86264).
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (!torch::cuda::is_available())
    return 0;
  const bool profile = argc > 1;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential model(torch::nn::Linear(128, 512), torch::nn::ReLU(), torch::nn::Linear(512, 10));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  std::ofstream loss_log("loss.csv");
  auto started = std::chrono::steady_clock::now();
  for (int64_t step = 0; step < 10000; ++step) {
    auto inputs = torch::randn({512, 128}, torch::device(device));
    auto labels = torch::randint(10, {512}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(model->forward(inputs), labels);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 100 == 0) {
      auto loss_host = loss.detach().to(torch::kCPU, /*non_blocking=*/true);
      torch::cuda::synchronize();
      if (profile) {
        auto now = std::chrono::steady_clock::now();
        std::printf("100 steps in %lld ms\n",
                    static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(now - started).count()));
        started = now;
      }
      loss_log << step << "," << loss_host.item<float>() << "\n";
    }
  }
  return 0;
}
