// Class: placement-transfer-in-loop, correct look-alike.
// Modelled on: the "AverageMeter" pattern of the PyTorch ImageNet example,
// ported to C++ (meter.update(loss.item())), and forum reports that
// libtorch training runs at half speed because of a device sync per batch.
// Why it is not a bug: the meter accumulates the detached loss in a tensor
// on the training device and reads it with item() once per epoch, in
// report(), after the batch loop.
// Twin: loop_loss_meter_item_per_batch.cpp
#include <torch/torch.h>

#include <cstdio>
#include <string>

class LossMeter {
 public:
  LossMeter(std::string name, torch::Device device)
      : name_(std::move(name)), sum_(torch::zeros({}, torch::TensorOptions(torch::kDouble).device(device))) {}

  void update(const torch::Tensor& loss, int64_t n) {
    sum_ += loss.detach() * n;
    count_ += n;
  }

  void report(int epoch) const {
    double total = sum_.item<double>();
    std::printf("epoch %d %s %.4f\n", epoch, name_.c_str(), count_ ? total / count_ : 0.0);
  }

 private:
  std::string name_;
  torch::Tensor sum_;
  int64_t count_ = 0;
};

struct MlpImpl : torch::nn::Module {
  explicit MlpImpl(int64_t width) {
    layers = register_module("layers", torch::nn::ModuleList(
        torch::nn::Linear(8, width), torch::nn::Linear(width, width), torch::nn::Linear(width, 1)));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (size_t i = 0; i + 1 < layers->size(); ++i) {
      x = torch::relu(layers->ptr<torch::nn::LinearImpl>(i)->forward(x));
    }
    return layers->ptr<torch::nn::LinearImpl>(layers->size() - 1)->forward(x);
  }
  torch::nn::ModuleList layers{nullptr};
};
TORCH_MODULE(Mlp);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Mlp model(64);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 1e-2);

  auto xs = torch::randn({2048, 8});
  auto ys = xs.sum(1, /*keepdim=*/true).sin();
  const int64_t batch = 64;
  for (int epoch = 0; epoch < 5; ++epoch) {
    LossMeter meter("mse", device);
    for (int64_t i = 0; i < xs.size(0); i += batch) {
      auto x = xs.slice(0, i, i + batch).to(device);
      auto y = ys.slice(0, i, i + batch).to(device);
      opt.zero_grad();
      auto loss = torch::mse_loss(model->forward(x), y);
      loss.backward();
      opt.step();
      meter.update(loss, x.size(0));
    }
    meter.report(epoch);
  }
}
