// Rule: placement-transfer-in-loop (a sync inside a callback kept in a vector of
// std::function, called on every step).
// Modelled on: Keras/Lightning-style callback lists in C++ trainers (on_step_end
// hooks for loss history and progress bars), rdevon/cortex#199 (item() per step
// forces a GPU sync), and the PyTorch performance tuning guide's "avoid unnecessary
// CPU-GPU synchronization".
// Why it is a bug: the history callback reads `loss.item<float>()` on every step;
// the loss is on the device chosen at run time (CUDA on a GPU machine), so each
// step copies it to the host and waits for the device.
// Twin: loop_step_callbacks_item_every_step_fixed.cpp (the callback reads only every
// `log_every` steps).
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
  fitter.add_callback([&history](int64_t step, const torch::Tensor &loss) {
    history.push_back(loss.item<float>()); // expect: placement-transfer-in-loop
    (void)step;
  });
  fitter.add_callback([log_every](int64_t step, const torch::Tensor &) {
    if (step % log_every == 0) std::cout << "step " << step << "\n";
  });
  fitter.fit(x, y, steps);

  const float mean = std::accumulate(history.begin(), history.end(), 0.f) / static_cast<float>(history.size());
  std::cout << "mean logged loss " << mean << " over " << history.size() << " points\n";
  return 0;
}
