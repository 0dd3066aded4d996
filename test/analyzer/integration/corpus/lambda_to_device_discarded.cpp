// issue 19 class 7 (consequences across functions): a lambda passed to std::transform discards its move.
// BUG (discarded-transfer in the lambda, mixed-device in the caller). A
// detector's test-time augmentation builds crops on the host and normalises
// them with `std::transform` and a lambda that "moves" each crop with
// `crop.to(device);`. The stacked crops stay on the cpu and meet the model on
// `device`.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential backbone(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
      torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(32, 10));
  torch::load(backbone, "backbone.pt");
  backbone->to(device);
  backbone->eval();

  torch::Tensor image;
  torch::load(image, "query.pt"); // [3, 256, 256] uint8
  std::vector<torch::Tensor> crops = {image.slice(1, 0, 224).slice(2, 0, 224), image.slice(1, 32, 256).slice(2, 0, 224),
                                      image.slice(1, 0, 224).slice(2, 32, 256), image.slice(1, 32, 256).slice(2, 32, 256),
                                      image.slice(1, 16, 240).slice(2, 16, 240)};
  std::transform(crops.begin(), crops.end(), crops.begin(), [&](torch::Tensor crop) {
    crop.to(device); // expect: placement-discarded-transfer
    return crop.to(torch::kFloat).div(255.0);
  });
  torch::NoGradGuard no_grad;
  auto logits = backbone->forward(torch::stack(crops)); // expect: placement-mixed-device
  std::cout << torch::softmax(logits, 1).mean(0).argmax() << "\n";
  return 0;
}
