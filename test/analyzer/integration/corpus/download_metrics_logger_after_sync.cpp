// unsynchronized-read: a non_blocking download handed to the program's own
// metrics logger after torch::cuda::synchronize(). CORRECT. As
// download_metrics_logger_reads_pending.cpp, but the trainer waits for the
// device before it hands the copy to log_metrics(): the copy is complete
// when the helper reads it through data_ptr().
#include <torch/torch.h>

#include <cstdio>

static void log_metrics(const torch::Tensor &metrics, int64_t epoch) {
  const float *values = metrics.data_ptr<float>();
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
    torch::cuda::synchronize();
    log_metrics(metrics, epoch);
  }
  return 0;
}
