// issue 19 class 9 (module internals): modules constructed inside forward, on the cpu, applied to device inputs.
// BUG (mixed-device). A double-conv block (ported from a Python U-Net whose
// author wrote `nn.BatchNorm2d(...)(x)` in forward) constructs its batch
// norms inside forward. A fresh module is on the cpu; `model->to(device)`
// never saw it. The first such call fails; the report belongs there, not
// also at the second one, which is never reached.
// Look-alike: batchnorm_registered_in_constructor.cpp.
#include <torch/torch.h>

#include <iostream>

struct DoubleConvImpl : torch::nn::Module {
  DoubleConvImpl(int64_t in, int64_t features)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, features, 3).padding(1)))),
        conv2(register_module("conv2",
                              torch::nn::Conv2d(torch::nn::Conv2dOptions(features, features, 3).padding(1)))),
        features_(features) {}

  torch::Tensor forward(torch::Tensor x) {
    x = conv1(x);
    x = torch::nn::BatchNorm2d(features_)(x); // expect: placement-mixed-device
    x = torch::relu(x);
    x = conv2(x);
    x = torch::nn::BatchNorm2d(features_)(x);
    return torch::relu(x);
  }
  torch::nn::Conv2d conv1, conv2;
  int64_t features_;
};
TORCH_MODULE(DoubleConv);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  DoubleConv block(3, 32);
  torch::nn::Conv2d classifier(torch::nn::Conv2dOptions(32, 2, 1));
  block->to(device);
  classifier->to(device);
  std::vector<torch::Tensor> params = block->parameters();
  for (auto &p : classifier->parameters())
    params.push_back(p);
  torch::optim::Adam optimizer(params, 1e-3);
  torch::Tensor images, masks;
  torch::load(images, "cells.pt");
  torch::load(masks, "cell_masks.pt");
  for (int64_t i = 0; i + 4 <= images.size(0); i += 4) {
    auto x = images.narrow(0, i, 4).to(device);
    auto y = masks.narrow(0, i, 4).to(device);
    auto loss = torch::nn::functional::cross_entropy(classifier(block(x)), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
