// Class: placement-unguarded-cuda, correct look-alike.
// Modelled on: libtorch inference wrappers in C++ deployment repos (e.g.
// YOLO/ResNet "Predictor" classes) and the forum reports "libtorch program
// crashes on a machine without GPU: Cannot initialize CUDA without ATen_cuda
// library / no CUDA GPUs are available"; the wrapper hard-codes kCUDA.
// Why it is not a bug: main chooses the device with
// torch::cuda::is_available() and the Predictor keeps it in a member that
// both the model move and the warm-up allocation use.
// Twin: unguarded_predictor_class_warmup.cpp
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <string>

namespace serve {

struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    net = register_module("net", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2)), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(16, 10)));
  }
  torch::Tensor forward(torch::Tensor x) { return net->forward(x); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(Backbone);

class Predictor {
 public:
  Predictor(const std::string& name, torch::Device device) : name_(name), device_(device) {
    model_->to(device_);
    model_->eval();
  }

  void warmup(int iterations) {
    torch::NoGradGuard no_grad;
    auto dummy = torch::zeros({1, 3, 224, 224}, torch::device(device_));
    for (int i = 0; i < iterations; ++i) model_->forward(dummy);
  }

  torch::Tensor predict(const torch::Tensor& image) {
    torch::NoGradGuard no_grad;
    return model_->forward(image.to(device()).unsqueeze(0)).softmax(1);
  }

  torch::Device device() const { return device_; }

 private:
  std::string name_;
  torch::Device device_;
  Backbone model_;
};

}  // namespace serve

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::cout << "serving on " << device << '\n';
  serve::Predictor predictor("resnet-lite", device);
  auto t0 = std::chrono::steady_clock::now();
  predictor.warmup(3);
  auto t1 = std::chrono::steady_clock::now();
  std::cout << "warmup " << std::chrono::duration<double>(t1 - t0).count() << " s\n";

  auto image = torch::rand({3, 224, 224});
  auto probs = predictor.predict(image);
  std::cout << "top class " << probs.argmax(1).item<int64_t>() << '\n';
}
