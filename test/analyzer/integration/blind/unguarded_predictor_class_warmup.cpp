// Class: placement-unguarded-cuda, with the bug (two requests).
// Modelled on: libtorch inference wrappers in C++ deployment repos (e.g.
// YOLO/ResNet "Predictor" classes) and the forum reports "libtorch program
// crashes on a machine without GPU: Cannot initialize CUDA without ATen_cuda
// library / no CUDA GPUs are available"; the wrapper hard-codes kCUDA.
// Why it is a bug: the constructor moves the model to kCUDA and warmup()
// allocates its dummy input on kCUDA with no torch::cuda::is_available()
// check anywhere on the path from main: the program fails on every CPU-only
// host.
// Twin: unguarded_predictor_class_warmup_fixed.cpp
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
  explicit Predictor(const std::string& name) : name_(name) {
    model_->to(torch::kCUDA); // expect: placement-unguarded-cuda
    model_->eval();
  }

  void warmup(int iterations) {
    torch::NoGradGuard no_grad;
    auto dummy = torch::zeros({1, 3, 224, 224}, torch::device(torch::kCUDA)); // expect: placement-unguarded-cuda
    for (int i = 0; i < iterations; ++i) model_->forward(dummy);
  }

  torch::Tensor predict(const torch::Tensor& image) {
    torch::NoGradGuard no_grad;
    return model_->forward(image.to(device()).unsqueeze(0)).softmax(1);
  }

  torch::Device device() const { return model_->parameters().front().device(); }

 private:
  std::string name_;
  Backbone model_;
};

}  // namespace serve

int main() {
  serve::Predictor predictor("resnet-lite");
  auto t0 = std::chrono::steady_clock::now();
  predictor.warmup(3);
  auto t1 = std::chrono::steady_clock::now();
  std::cout << "warmup " << std::chrono::duration<double>(t1 - t0).count() << " s\n";

  auto image = torch::rand({3, 224, 224});
  auto probs = predictor.predict(image);
  std::cout << "top class " << probs.argmax(1).item<int64_t>() << '\n';
}
