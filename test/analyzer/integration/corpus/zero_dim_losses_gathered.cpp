// issue 19 class 8 (0-dim tensors on another CUDA device), correct look-alike.
// CORRECT. As zero_dim_losses_two_gpus.cpp, but the depth loss is brought to
// cuda:0 before the sum (autograd carries the gradient back across).
#include <torch/torch.h>

#include <iostream>

int main() {
  if (torch::cuda::device_count() < 2)
    return 1;
  const torch::Device gpu0(torch::kCUDA, 0), gpu1(torch::kCUDA, 1);
  torch::nn::Sequential trunk(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)), torch::nn::ReLU(),
                              torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1)), torch::nn::ReLU());
  torch::nn::Conv2d seg_head(torch::nn::Conv2dOptions(64, 21, 1));
  torch::nn::Conv2d depth_head(torch::nn::Conv2dOptions(64, 1, 1));
  trunk->to(gpu0);
  seg_head->to(gpu0);
  depth_head->to(gpu1);
  std::vector<torch::Tensor> params = trunk->parameters();
  for (auto &p : seg_head->parameters())
    params.push_back(p);
  for (auto &p : depth_head->parameters())
    params.push_back(p);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.01).momentum(0.9));

  torch::Tensor images, seg_masks, depths;
  torch::load(images, "nyu_images.pt");
  torch::load(seg_masks, "nyu_seg.pt");
  torch::load(depths, "nyu_depth.pt");
  for (int64_t i = 0; i + 8 <= images.size(0); i += 8) {
    auto features = trunk->forward(images.narrow(0, i, 8).to(gpu0));
    auto seg_loss = torch::nn::functional::cross_entropy(seg_head(features), seg_masks.narrow(0, i, 8).to(gpu0));
    auto depth = depth_head(features.to(gpu1));
    auto depth_loss = torch::l1_loss(depth, depths.narrow(0, i, 8).to(gpu1));
    auto loss = seg_loss + 0.5 * depth_loss.to(gpu0);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
