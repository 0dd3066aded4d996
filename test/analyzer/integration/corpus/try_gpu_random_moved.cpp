// issue 19 class 3 (device spellings): a device returned by a helper, `try_gpu(i)`.
// BUG (create-then-move). The "Dive into Deep Learning" helper `try_gpu(i)`
// returns cuda:i when there are more than i GPUs and the cpu otherwise. In
// the chapter's computation-on-GPUs demo, `Y` is drawn with `torch::rand` on
// the host and moved to `try_gpu()` at once; given `torch::device(try_gpu())`
// (as `X` is) it is drawn there. `X + Y` is fine: both calls of the helper
// give the same device.
#include <torch/torch.h>

#include <iostream>

torch::Device try_gpu(int i = 0) {
  if (torch::cuda::device_count() >= static_cast<size_t>(i + 1))
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
  return torch::Device(torch::kCPU);
}

int main() {
  std::cout << "GPUs: " << torch::cuda::device_count() << "\n";
  auto X = torch::ones({2, 3}, torch::device(try_gpu()));
  auto Y = torch::rand({2, 3}).to(try_gpu()); // expect: placement-create-then-move
  std::cout << X + Y << "\n";

  torch::nn::Sequential net(torch::nn::Linear(3, 1));
  net->to(try_gpu());
  std::cout << net->forward(X) << "\n";
  std::cout << net[0]->as<torch::nn::Linear>()->weight.device() << "\n";
  return 0;
}
