// unsynchronized-read: a synchronisation on one path only. BUG. The trainer
// downloads the loss with non_blocking=true for its CSV log; the only
// torch::cuda::synchronize() is in the profiling branch (for an honest step
// time), so with profiling off, the default, the log reads the copy before it
// lands. Profiling runs show the right values, production runs do not
// (pytorch/pytorch#86264, whose author waited with time.sleep(1) where a
// synchronisation was needed). Issue 23 names the class: "a synchronisation
// on one path (a profiling branch) does not complete the copy on the other".
// Look-alike: download_sync_before_profiling_branch.cpp.
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
      if (profile) {
        torch::cuda::synchronize();
        auto now = std::chrono::steady_clock::now();
        std::printf("100 steps in %lld ms\n",
                    static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(now - started).count()));
        started = now;
      }
      loss_log << step << "," << loss_host.item<float>() << "\n"; // expect: placement-unsynchronized-read
    }
  }
  return 0;
}
