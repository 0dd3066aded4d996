// Rule: placement-unsynchronized-read (two non_blocking downloads returned in a
// std::tuple by a helper, read through structured bindings).
// Modelled on: C++ trainers that accumulate loss and accuracy on the device and
// fetch them "asynchronously" once per epoch (the advice of the PyTorch performance
// guide, applied without the synchronisation), and pytorch/pytorch#127612 (values
// of a non_blocking device-to-host copy read too early).
// Why it is a bug: fetch_stats() returns both accumulators copied with
// `to(kCPU, /*non_blocking=*/true)`; the epoch summary reads each with item()
// straight away, with nothing waiting for the copies (two copies, each first read
// on its own line).
// Twin: none (a torch::cuda::synchronize() before the reads would be the fix).
#include <torch/torch.h>

#include <cstdio>
#include <tuple>

struct RunningStats {
  torch::Tensor loss_sum;
  torch::Tensor correct;
  int64_t seen = 0;
};

std::tuple<torch::Tensor, torch::Tensor> fetch_stats(const RunningStats &s) {
  return std::make_tuple(s.loss_sum.to(torch::kCPU, /*non_blocking=*/true),
                         s.correct.to(torch::kCPU, /*non_blocking=*/true));
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  torch::nn::Sequential model(torch::nn::Linear(20, 64), torch::nn::ReLU(), torch::nn::Dropout(0.1),
                              torch::nn::Linear(64, 2));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));

  auto opts = torch::TensorOptions().device(device);
  auto data = torch::randn({4096, 20}, opts);
  auto labels = (data.select(1, 0) * data.select(1, 1) > 0).to(torch::kLong);

  for (int epoch = 0; epoch < 5; ++epoch) {
    RunningStats stats{torch::zeros({}, opts), torch::zeros({}, opts.dtype(torch::kLong))};
    auto perm = torch::randperm(data.size(0), opts.dtype(torch::kLong));
    for (int64_t start = 0; start < data.size(0); start += 128) {
      auto idx = perm.narrow(0, start, 128);
      auto x = data.index_select(0, idx), y = labels.index_select(0, idx);
      opt.zero_grad();
      auto logits = model->forward(x);
      auto loss = torch::nn::functional::cross_entropy(logits, y);
      loss.backward();
      opt.step();
      stats.loss_sum += loss.detach() * x.size(0);
      stats.correct += logits.argmax(1).eq(y).sum();
      stats.seen += x.size(0);
    }
    auto [loss_host, correct_host] = fetch_stats(stats);
    const double mean_loss = loss_host.item<double>() / static_cast<double>(stats.seen); // expect: placement-unsynchronized-read
    const int64_t correct = correct_host.item<int64_t>(); // expect: placement-unsynchronized-read
    std::printf("epoch %d loss %.4f accuracy %.3f\n", epoch, mean_loss, static_cast<double>(correct) / stats.seen);
  }
  return 0;
}
