// Rule: placement-unguarded-cuda (a check that only warns; the device id an int
// parameter).
// Modelled on: C++ inference tools that take `int gpu_id` (the shape of many
// libtorch deployment samples: `torch::Device device(torch::kCUDA, gpu_id)`), whose
// main prints "CUDA not available" and carries on, and the resulting reports
// "libtorch: no CUDA GPUs are available" on CPU-only servers.
// Why it is a bug: main's is_available() test only prints a warning and goes on;
// Classifier::load_to() then moves the network to cuda:<gpu_id> (main passes 0), so
// on a machine without a GPU the program still fails there.
// Twin: none (returning, or choosing the CPU, on the failing side would be the fix).
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <vector>

class Classifier {
 public:
  Classifier()
      : net_(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), torch::nn::ReLU(),
             torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions(1)), torch::nn::Flatten(),
             torch::nn::Linear(16, 5)) {
    net_->eval();
  }

  void load_to(int gpu_id) {
    net_->to(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(gpu_id))); // expect: placement-unguarded-cuda
    device_ = net_->parameters().front().device();
  }

  torch::Tensor classify(const std::vector<torch::Tensor> &images) {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> labels;
    for (const auto &img : images) labels.push_back(net_->forward(img.unsqueeze(0).to(device_)).argmax(1));
    return torch::cat(labels).cpu();
  }

 private:
  torch::nn::Sequential net_;
  torch::Device device_{torch::kCPU};
};

std::vector<torch::Tensor> load_images(size_t count) {
  std::vector<torch::Tensor> images;
  images.reserve(count);
  for (size_t i = 0; i < count; ++i) images.push_back(torch::rand({3, 64, 64}));
  return images;
}

int main() {
  if (!torch::cuda::is_available()) std::cerr << "warning: CUDA is not available, inference may fail\n";
  Classifier clf;
  clf.load_to(/*gpu_id=*/0);

  const auto images = load_images(32);
  const auto t0 = std::chrono::steady_clock::now();
  auto labels = clf.classify(images);
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "classified " << labels.size(0) << " images in " << ms << " ms; first label "
            << labels[0].item<int64_t>() << "\n";
  return 0;
}
