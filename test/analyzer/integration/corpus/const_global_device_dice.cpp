// issue 19 class 3 (device spellings): a `const` global device.
// BUG (mixed-device). A segmentation trainer chooses its device once, in a
// namespace-scope `const torch::Device kDevice`. Its soft Dice loss adds a
// per-class smoothing vector made with `torch::full({classes}, ...)` on the
// cpu to per-class sums on kDevice. (A 0-dim smoothing term would be fine; a
// [classes] tensor is not.)
// Look-alike: const_global_device_dice_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

namespace {
const torch::Device kDevice(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
constexpr int64_t kClasses = 4;
} // namespace

torch::Tensor soft_dice_loss(const torch::Tensor &logits, const torch::Tensor &target) {
  auto probs = torch::softmax(logits, 1);
  auto one_hot = torch::one_hot(target, kClasses).permute({0, 3, 1, 2}).to(probs.scalar_type());
  auto intersection = (probs * one_hot).sum({0, 2, 3});
  auto cardinality = (probs + one_hot).sum({0, 2, 3});
  auto smooth = torch::full({kClasses}, 1e-5);
  auto dice = (2.0 * intersection + smooth) / (cardinality + smooth); // expect: placement-mixed-device
  return 1.0 - dice.mean();
}

int main() {
  torch::nn::Sequential unet_lite(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(32, kClasses, 1)));
  unet_lite->to(kDevice);
  torch::optim::Adam optimizer(unet_lite->parameters(), 1e-3);
  torch::Tensor images, masks;
  torch::load(images, "tiles.pt");
  torch::load(masks, "tile_masks.pt");
  for (int64_t start = 0; start + 8 <= images.size(0); start += 8) {
    auto x = images.narrow(0, start, 8).to(kDevice);
    auto y = masks.narrow(0, start, 8).to(kDevice);
    optimizer.zero_grad();
    auto loss = soft_dice_loss(unet_lite->forward(x), y);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
