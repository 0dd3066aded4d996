// issue 19 class 9 (module internals), correct look-alike.
// CORRECT. As batchnorm_constructed_in_forward.cpp, but the batch norms are
// registered submodules made in the constructor, so `block->to(device)` moves
// them.
#include <torch/torch.h>

#include <iostream>

struct DoubleConvImpl : torch::nn::Module {
  DoubleConvImpl(int64_t in, int64_t features)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, features, 3).padding(1)))),
        conv2(register_module("conv2",
                              torch::nn::Conv2d(torch::nn::Conv2dOptions(features, features, 3).padding(1)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(features))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(features))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = conv1(x);
    x = bn1(x);
    x = torch::relu(x);
    x = conv2(x);
    x = bn2(x);
    return torch::relu(x);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::BatchNorm2d bn1, bn2;
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
