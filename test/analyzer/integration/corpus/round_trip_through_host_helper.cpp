// issue 8 class 14: a round trip through a host helper every iteration.
// BUG. Each frame's predicted boxes are moved to the host for a helper that
// clips them (written with accessors, so it wants cpu tensors), then moved
// back to `device` to compute the tracking loss: a sync down and a copy up on
// every iteration when `device` is CUDA. Look-alike of clip_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

torch::Tensor clip_boxes(torch::Tensor boxes, float width, float height) {
  auto a = boxes.accessor<float, 2>();
  for (int64_t i = 0; i < boxes.size(0); ++i) {
    a[i][0] = std::min(std::max(a[i][0], 0.0f), width);
    a[i][1] = std::min(std::max(a[i][1], 0.0f), height);
    a[i][2] = std::min(std::max(a[i][2], 0.0f), width);
    a[i][3] = std::min(std::max(a[i][3], 0.0f), height);
  }
  return boxes;
}

struct TrackerImpl : torch::nn::Module {
  TrackerImpl()
      : backbone(register_module("backbone", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2)))),
        box_head(register_module("box_head", torch::nn::Linear(16, 4))) {}
  torch::Tensor forward(const torch::Tensor &frame) {
    auto pooled = torch::adaptive_avg_pool2d(torch::relu(backbone(frame)), 1).flatten(1);
    return box_head(pooled).sigmoid() * 640.0;
  }
  torch::nn::Conv2d backbone;
  torch::nn::Linear box_head;
};
TORCH_MODULE(Tracker);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Tracker tracker;
  tracker->to(device);
  torch::optim::Adam optimizer(tracker->parameters(), 1e-4);
  for (int64_t frame_index = 0; frame_index < 5000; ++frame_index) {
    auto frame = torch::rand({8, 3, 480, 640}, torch::device(device));
    auto target = torch::rand({8, 4}, torch::device(device)) * 640.0;
    auto boxes = tracker(frame);
    auto host_boxes = boxes.detach().cpu(); // expect: placement-transfer-in-loop
    auto clipped = clip_boxes(host_boxes, 640.0f, 480.0f);
    auto on_device = clipped.to(device); // expect: placement-transfer-in-loop
    auto loss = torch::smooth_l1_loss(boxes, on_device.detach()) + torch::l1_loss(boxes, target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
