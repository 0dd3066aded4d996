// placement-transfer-in-loop: a training loop calls a logging helper that
// reads the loss with item(), once every 100 steps. CORRECT. As
// loss_logger_item_every_step.cpp, but record_loss() is called under
// `if (step % 100 == 0)`: a periodic sync for a progress line is the normal
// pattern, not a per-iteration stall.
#include <torch/torch.h>

#include <cstdio>

struct RunningMean {
  double sum = 0;
  int64_t count = 0;
};

static void record_loss(RunningMean &meter, const torch::Tensor &loss) {
  meter.sum += loss.item<float>();
  meter.count += 1;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Linear(20, 64), torch::nn::Tanh(), torch::nn::Linear(64, 1));
  model->to(device);
  torch::optim::RMSprop optimizer(model->parameters(), torch::optim::RMSpropOptions(1e-3));
  RunningMean meter;
  for (int64_t step = 0; step < 5000; ++step) {
    auto inputs = torch::randn({512, 20}, torch::device(device));
    auto targets = inputs.slice(1, 0, 1).cos();
    auto loss = torch::smooth_l1_loss(model->forward(inputs), targets);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 100 == 0)
      record_loss(meter, loss);
  }
  std::printf("mean loss %.5f over %lld sampled steps\n", meter.sum / meter.count, static_cast<long long>(meter.count));
  return 0;
}
