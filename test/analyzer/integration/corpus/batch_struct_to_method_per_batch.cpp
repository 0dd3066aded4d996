// issue 19 class 13 (a batch type's own to()): a const `to()` that returns a moved copy, called once per batch.
// CORRECT. A detection batch type moves its fields in `to(device)`, like
// Tensor::to. The loop calls it once for each newly loaded batch: each call
// moves fresh data. The transfers inside `Batch::to` are not an unchanged
// member moved on every call, and not a transfer in a loop of an unchanged
// tensor.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct DetectionBatch {
  torch::Tensor images;  // [B, 3, H, W]
  torch::Tensor boxes;   // [B, N, 4]
  torch::Tensor classes; // [B, N]
  DetectionBatch to(torch::Device device, bool non_blocking = false) const {
    return {images.to(device, non_blocking), boxes.to(device, non_blocking), classes.to(device, non_blocking)};
  }
};

DetectionBatch load_batch(int64_t index) {
  DetectionBatch b;
  const std::string stem = "coco_mini/" + std::to_string(index);
  torch::load(b.images, stem + "_images.pt");
  torch::load(b.boxes, stem + "_boxes.pt");
  torch::load(b.classes, stem + "_classes.pt");
  return b;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential backbone(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)),
                                 torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(7), torch::nn::Flatten());
  torch::nn::Linear box_head(32 * 49, 4), cls_head(32 * 49, 80);
  backbone->to(device);
  box_head->to(device);
  cls_head->to(device);
  std::vector<torch::Tensor> params = backbone->parameters();
  for (auto &p : box_head->parameters())
    params.push_back(p);
  for (auto &p : cls_head->parameters())
    params.push_back(p);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.01).momentum(0.9));
  for (int64_t index = 0; index < 1000; ++index) {
    const DetectionBatch batch = load_batch(index).to(device);
    auto features = backbone->forward(batch.images);
    auto first_box = batch.boxes.select(1, 0);
    auto first_class = batch.classes.select(1, 0);
    auto loss = torch::smooth_l1_loss(box_head(features), first_box) +
                torch::nn::functional::cross_entropy(cls_head(features), first_class);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
