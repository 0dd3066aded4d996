// issue 19 class 5 (structs and batch types): a partial move of a list before `cat`.
// BUG (mixed-device). A multi-scale feature pyramid: the per-level outputs
// come back from a worker pool on the host; the loop that moves them to the
// device starts at 1 (it was written when level 0 was computed on the device),
// so `torch::cat` gets level 0 on the cpu and the others on the device.
// Look-alike: features_moved_by_reference_before_cat.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

std::vector<torch::Tensor> pooled_levels(const torch::Tensor &image, int levels) {
  std::vector<torch::Tensor> out;
  auto x = image;
  for (int level = 0; level < levels; ++level) {
    out.push_back(torch::adaptive_avg_pool2d(x, {4, 4}).flatten(1));
    x = torch::avg_pool2d(x, 2);
  }
  return out;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear classifier(4 * 3 * 16, 20);
  classifier->to(device);
  torch::optim::SGD optimizer(classifier->parameters(), 0.01);
  torch::Tensor images, labels;
  torch::load(images, "scenes.pt");
  torch::load(labels, "scene_labels.pt");
  for (int64_t i = 0; i + 32 <= images.size(0); i += 32) {
    auto levels = pooled_levels(images.narrow(0, i, 32), 4);
    for (size_t level = 1; level < levels.size(); ++level)
      levels[level] = levels[level].to(device);
    auto features = torch::cat(levels, 1); // expect: placement-mixed-device
    auto loss = torch::nn::functional::cross_entropy(classifier(features), labels.narrow(0, i, 32).to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
