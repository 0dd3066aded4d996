// placement-non-leaf-parameter (tabled apart).
// CORRECT look-alike of grad_checked_after_move: the image is made on the
// device and marked requires_grad_() there, so it is the leaf whose
// gradient backward() fills.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3)),
                              torch::nn::ReLU(), torch::nn::Flatten(),
                              torch::nn::Linear(8 * 30 * 30, 10));
  model->to(device);
  auto image = torch::rand({1, 3, 32, 32}, torch::TensorOptions().device(device));
  image.requires_grad_();
  auto score = model->forward(image).max();
  score.backward();
  auto saliency = image.grad().abs().amax(1);
  std::cout << saliency.sizes() << "\n";
  return 0;
}
