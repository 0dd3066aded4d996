// placement-transfer-in-loop: a training loop calls a logging helper on every
// step, and the helper reads the loss with item(). BUG. record_loss() keeps a
// running mean of the loss for the progress line; it is called after every
// optimizer step, and its loss.item<float>() copies the device loss to the
// host and waits for the GPU each time, serialising the loop (PyTorch's
// performance tuning guide: "avoid unnecessary CPU-GPU synchronization" such
// as tensor.item() in the training loop; here hidden in a helper, as
// trainers' meters do). The finding is the item() inside the helper.
// Look-alike: loss_logger_item_periodic.cpp.
#include <torch/torch.h>

#include <cstdio>

struct RunningMean {
  double sum = 0;
  int64_t count = 0;
};

static void record_loss(RunningMean &meter, const torch::Tensor &loss) {
  meter.sum += loss.item<float>(); // expect: placement-transfer-in-loop
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
    record_loss(meter, loss);
  }
  std::printf("mean loss %.5f over %lld steps\n", meter.sum / meter.count, static_cast<long long>(meter.count));
  return 0;
}
