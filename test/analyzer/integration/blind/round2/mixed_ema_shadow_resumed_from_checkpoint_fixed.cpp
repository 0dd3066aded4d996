// Rule: placement-mixed-device, correct look-alike (tensors that torch::load gives back).
// Modelled on: resuming training in C++, where torch::load has no map_location
// and gives host tensors (pytorch/pytorch#79260 is the converse: a CPU libtorch
// loading a GPU checkpoint), and EMA-of-weights helpers of C++ detection and
// diffusion trainers.
// Why it is correct: restore() moves every loaded shadow tensor to the device of
// the model's parameter it shadows, so update() combines tensors on one device.
// Twin: mixed_ema_shadow_resumed_from_checkpoint.cpp (the loaded shadow stays on the host).
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(32, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Net);

class ModelEma {
 public:
  ModelEma(Net model, double decay) : model_(std::move(model)), decay_(decay) {
    for (const auto &p : model_->parameters()) shadow_.push_back(p.detach().clone());
  }
  void restore(const std::string &path) {
    std::vector<torch::Tensor> loaded;
    torch::load(loaded, path);
    TORCH_CHECK(loaded.size() == shadow_.size(), "EMA checkpoint ", path, " holds ", loaded.size(),
                " tensors, the model has ", shadow_.size());
    auto params = model_->parameters();
    for (size_t i = 0; i < loaded.size(); ++i) shadow_[i] = loaded[i].to(params[i].device());
  }
  void save(const std::string &path) const { torch::save(shadow_, path); }
  void update() {
    torch::NoGradGuard no_grad;
    auto params = model_->parameters();
    for (size_t i = 0; i < params.size(); ++i)
      shadow_[i].mul_(decay_).add_(params[i].detach(), 1.0 - decay_);
  }

 private:
  Net model_;
  double decay_;
  std::vector<torch::Tensor> shadow_;
};

static bool file_exists(const std::string &path) { return std::ifstream(path).good(); }

int main(int argc, char **argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "ema.pt";
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA, 0);

  Net model;
  model->to(device);
  ModelEma ema(model, 0.999);
  if (file_exists(ckpt)) {
    ema.restore(ckpt);
    std::cout << "resumed EMA from " << ckpt << "\n";
  }

  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(3e-4));
  auto x = torch::randn({256, 32}, torch::device(device));
  auto y = torch::randint(0, 10, {256}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int step = 0; step < 200; ++step) {
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model(x), y);
    loss.backward();
    opt.step();
    ema.update();
  }
  ema.save(ckpt);
  return 0;
}
