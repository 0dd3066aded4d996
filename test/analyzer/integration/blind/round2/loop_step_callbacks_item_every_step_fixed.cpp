// Rule: placement-transfer-in-loop, correct look-alike.
// Modelled on: Keras/Lightning-style callback lists in C++ trainers, and the
// performance tuning guide's advice to log the loss only every N steps.
// Why it is correct: the history callback reads `loss.item<float>()` only under
// `step % log_every == 0`, once per hundred steps, which is what periodic logging
// costs; the other steps never leave the device.
// Twin: loop_step_callbacks_item_every_step.cpp (item() on every step).
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <numeric>
#include <vector>

using StepCallback = std::function<void(int64_t, const torch::Tensor &)>;

class Fitter {
 public:
  explicit Fitter(torch::nn::Linear model) : model_(std::move(model)) {}

  void add_callback(StepCallback cb) { callbacks_.push_back(std::move(cb)); }

  void fit(const torch::Tensor &x, const torch::Tensor &y, int64_t steps) {
    torch::optim::Adam opt(model_->parameters(), torch::optim::AdamOptions(1e-2));
    for (int64_t step = 0; step < steps; ++step) {
      opt.zero_grad();
      auto loss = torch::mse_loss(model_(x), y);
      loss.backward();
      opt.step();
      for (auto &cb : callbacks_) cb(step, loss.detach());
    }
  }

 private:
  torch::nn::Linear model_;
  std::vector<StepCallback> callbacks_;
};

int main(int argc, char **argv) {
  const int64_t steps = argc > 1 ? std::stoll(argv[1]) : 1000;
  const int64_t log_every = 100;
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);

  torch::nn::Linear model(10, 1);
  model->to(device);
  auto x = torch::randn({4096, 10}, torch::device(device));
  auto y = x.sum(1, /*keepdim=*/true) * 0.5;

  std::vector<float> history;
  Fitter fitter(model);
  fitter.add_callback([&history, log_every](int64_t step, const torch::Tensor &loss) {
    if (step % log_every == 0) history.push_back(loss.item<float>());
  });
  fitter.add_callback([log_every](int64_t step, const torch::Tensor &) {
    if (step % log_every == 0) std::cout << "step " << step << "\n";
  });
  fitter.fit(x, y, steps);

  const float mean = std::accumulate(history.begin(), history.end(), 0.f) / static_cast<float>(history.size());
  std::cout << "mean logged loss " << mean << " over " << history.size() << " points\n";
  return 0;
}
