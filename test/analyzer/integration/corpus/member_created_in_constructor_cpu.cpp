// issue 8 class 5: members set in the constructor.
// BUG. The preprocessing module takes the device in its constructor and
// creates the mean there, but creates the standard deviation without it: both
// are plain members (not buffers), so only `mean` is on `device`, and the
// division in `forward` mixes the device image with the cpu `stddev`.
// Look-alike of member_created_in_constructor_device.cpp.
#include <torch/torch.h>

#include <iostream>

struct NormalizeImpl : torch::nn::Module {
  explicit NormalizeImpl(torch::Device device)
      : mean(torch::tensor({0.485, 0.456, 0.406}, torch::TensorOptions().dtype(torch::kFloat).device(device))
                 .view({1, 3, 1, 1})),
        stddev(torch::tensor({0.229, 0.224, 0.225}, torch::TensorOptions().dtype(torch::kFloat))
                   .view({1, 3, 1, 1})) {}

  torch::Tensor forward(const torch::Tensor &image) {
    auto centered = image - mean;
    return centered / stddev; // expect: placement-mixed-device
  }

  torch::Tensor mean, stddev;
};
TORCH_MODULE(Normalize);

struct FeatureNetImpl : torch::nn::Module {
  FeatureNetImpl()
      : features(register_module("features", torch::nn::Sequential(
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2)),
                                                 torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1)))) {}
  torch::Tensor forward(const torch::Tensor &x) { return features->forward(x).flatten(1); }
  torch::nn::Sequential features;
};
TORCH_MODULE(FeatureNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Normalize normalize(device);
  FeatureNet net;
  net->to(device);
  net->eval();
  torch::NoGradGuard no_grad;

  std::vector<torch::Tensor> embeddings;
  for (int frame = 0; frame < 64; ++frame) {
    auto image = torch::rand({1, 3, 224, 224}, torch::device(device));
    embeddings.push_back(net(normalize(image)));
  }
  auto all = torch::cat(embeddings);
  std::cout << "embeddings " << all.sizes() << "\n";
  return 0;
}
