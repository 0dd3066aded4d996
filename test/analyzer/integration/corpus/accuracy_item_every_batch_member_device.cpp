// issue 8 class 11: a sync every iteration, the device held in a member.
// BUG. The trainer keeps its device in a member (CUDA when available). Its
// evaluation counts correct predictions with `.item<int64_t>()` on every
// batch, a device-to-host copy and sync per batch on a GPU.
// Look-alike of accuracy_counted_on_device.cpp.
#include <torch/torch.h>

#include <iostream>
#include <memory>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl()
      : net(register_module("net", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(784, 256),
                                                         torch::nn::ReLU(), torch::nn::Linear(256, 10)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return net->forward(x); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Classifier);

class Trainer {
public:
  explicit Trainer(Classifier model)
      : model_(std::move(model)), device_(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU) {
    model_->to(device_);
  }

  template <typename Loader> double evaluate(Loader &loader) {
    torch::NoGradGuard no_grad;
    model_->eval();
    int64_t correct = 0, seen = 0;
    for (auto &batch : loader) {
      auto images = batch.data.to(device_);
      auto labels = batch.target.to(device_);
      auto predictions = model_(images).argmax(1);
      correct += predictions.eq(labels).sum().template item<int64_t>(); // expect: placement-transfer-in-loop
      seen += labels.size(0);
    }
    return static_cast<double>(correct) / seen;
  }

private:
  Classifier model_;
  torch::Device device_;
};

int main() {
  Classifier model;
  torch::load(model, "classifier.pt");
  Trainer trainer(model);
  auto test_loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      1000);
  std::cout << "accuracy " << trainer.evaluate(*test_loader) << "\n";
  return 0;
}
