// Class: placement-transfer-in-loop, correct look-alike.
// Modelled on: focal/weighted-loss helpers in C++ segmentation and
// detection trainers (PyTorch forum threads on slow libtorch training loops,
// profiler traces full of small HtoD memcpys): the helper moves its constant
// weight tensor to the logits' device on every call.
// Why it is not a bug: the caller moves `alpha` to the device once, before
// the loop, and focal_loss uses it where it is.
// Twin: loop_class_weights_moved_in_helper.cpp
#include <torch/torch.h>

#include <iostream>

namespace losses {

torch::Tensor focal_loss(const torch::Tensor& logits, const torch::Tensor& target,
                         const torch::Tensor& alpha, double gamma) {
  auto log_p = torch::log_softmax(logits, 1).gather(1, target.unsqueeze(1)).squeeze(1);
  auto p = log_p.exp();
  auto a = alpha.index_select(0, target);
  return (-a * (1 - p).pow(gamma) * log_p).mean();
}

}  // namespace losses

struct Config {
  int64_t classes = 3;
  int64_t features = 12;
  int steps = 200;
  double lr = 0.01;
  double gamma = 2.0;
};

int main(int argc, char** argv) {
  Config cfg;
  if (argc > 1) cfg.steps = std::atoi(argv[1]);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto model = torch::nn::Linear(cfg.features, cfg.classes);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(cfg.lr));

  const auto alpha = torch::tensor({0.25f, 0.5f, 0.25f}, torch::TensorOptions().device(device));

  auto all_x = torch::randn({4096, cfg.features});
  auto all_y = torch::randint(0, cfg.classes, {4096}, torch::kLong);
  for (int step = 0; step < cfg.steps; ++step) {
    auto idx = torch::randint(0, all_x.size(0), {128}, torch::kLong);
    auto x = all_x.index_select(0, idx).to(device);
    auto y = all_y.index_select(0, idx).to(device);
    opt.zero_grad();
    auto loss = losses::focal_loss(model->forward(x), y, alpha, cfg.gamma);
    loss.backward();
    opt.step();
    if (step % 50 == 0) std::cout << "step " << step << " loss " << loss.item<float>() << '\n';
  }
}
