// issue 8 class 15: an unchanged member moved to the device on every call.
// BUG. The renderer's colour palette is a plain member created on the host
// in the constructor and never changed; `colorize`, called once per frame,
// moves it to the renderer's device on every call: the same host-to-device
// copy every frame. Look-alike of member_moved_once_in_constructor.cpp.
#include <torch/torch.h>

#include <iostream>

class SegmentationRenderer {
public:
  SegmentationRenderer(torch::Device device, int64_t classes)
      : device_(device), palette_(torch::randint(256, {classes, 3}, torch::kFloat).div_(255.0)) {}

  torch::Tensor colorize(const torch::Tensor &labels) {
    auto palette = palette_.to(device_); // expect: placement-transfer-in-loop
    return palette.index_select(0, labels.flatten()).view({labels.size(0), labels.size(1), 3});
  }

private:
  torch::Device device_;
  torch::Tensor palette_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Conv2d segmenter(torch::nn::Conv2dOptions(3, 21, 1));
  segmenter->to(device);
  SegmentationRenderer renderer(device, 21);
  torch::NoGradGuard no_grad;
  for (int64_t frame = 0; frame < 10000; ++frame) {
    auto image = torch::rand({1, 3, 240, 320}, torch::device(device));
    auto labels = segmenter(image).argmax(1).squeeze(0);
    auto colored = renderer.colorize(labels);
    if (frame % 500 == 0) {
      std::cout << "frame " << frame << " mean colour " << colored.mean().item<float>() << "\n";
    }
  }
  return 0;
}
