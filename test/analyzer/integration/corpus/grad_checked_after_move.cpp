// placement-non-leaf-parameter (tabled apart).
// BUG. A gradient check on an input image: the image is marked
// requires_grad_() on the host and then moved to the GPU with the model.
// Its grad() after backward() is undefined, so the saliency map is empty
// (libtorch: an undefined tensor; printing it throws).
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3)),
                              torch::nn::ReLU(), torch::nn::Flatten(),
                              torch::nn::Linear(8 * 30 * 30, 10));
  model->to(device);
  auto image = torch::rand({1, 3, 32, 32});
  image.requires_grad_();
  image = image.to(device); // expect: placement-non-leaf-parameter
  auto score = model->forward(image).max();
  score.backward();
  auto saliency = image.grad().abs().amax(1);
  std::cout << saliency.sizes() << "\n";
  return 0;
}
