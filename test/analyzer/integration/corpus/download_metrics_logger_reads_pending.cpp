// unsynchronized-read: a pending non_blocking download handed to the program's
// own metrics logger, which reads it. BUG. After each validation pass the
// trainer gathers its metrics into one small device tensor, copies it to the
// host with non_blocking=true (so the copy overlaps the next epoch's first
// steps) and hands the copy to log_metrics(), which reads it through
// data_ptr() at once: nothing has waited for the copy, so the logged numbers
// are whatever the host buffer held (pytorch/pytorch#86264, 'to("cpu",
// non_blocking=True) work weird', with the read moved into a logging helper
// as trainers' metric writers do). The read that is wrong is the one inside
// the helper.
// Look-alike: download_metrics_logger_after_sync.cpp.
#include <torch/torch.h>

#include <cstdio>

static void log_metrics(const torch::Tensor &metrics, int64_t epoch) {
  const float *values = metrics.data_ptr<float>(); // expect: placement-unsynchronized-read
  std::printf("epoch %lld val_loss %.4f val_acc %.4f\n", static_cast<long long>(epoch), values[0], values[1]);
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential model(torch::nn::Linear(64, 256), torch::nn::ReLU(), torch::nn::Linear(256, 10));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  auto val_inputs = torch::randn({1024, 64}, torch::device(device));
  auto val_labels = torch::randint(0, 10, {1024}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int64_t epoch = 0; epoch < 30; ++epoch) {
    model->train();
    for (int64_t step = 0; step < 100; ++step) {
      auto inputs = torch::randn({128, 64}, torch::device(device));
      auto labels = torch::randint(0, 10, {128}, torch::TensorOptions().dtype(torch::kLong).device(device));
      auto loss = torch::cross_entropy_loss(model->forward(inputs), labels);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    auto logits = model->forward(val_inputs);
    auto val_loss = torch::cross_entropy_loss(logits, val_labels);
    auto val_acc = logits.argmax(1).eq(val_labels).to(torch::kFloat).mean();
    auto metrics = torch::stack({val_loss, val_acc}).to(torch::kCPU, /*non_blocking=*/true);
    log_metrics(metrics, epoch);
  }
  return 0;
}
