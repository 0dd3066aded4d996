// issue 19 class 3 (device spellings): a helper's cuda:1 meeting `.cuda()` (the current device).
// BUG (mixed-device). With `try_gpu(1)` (cuda:1 when there are two GPUs, else
// the cpu) the projection weights are drawn on the second GPU, while the
// inputs are sent with `.cuda()`, i.e. to the current device, cuda:0. The
// product fails on a two-GPU machine (cuda:0 with cuda:1) and on a one-GPU
// machine (cuda:0 with the cpu). The GPU path is guarded by is_available().
// Look-alike: try_gpu_same_helper_device.cpp.
#include <torch/torch.h>

#include <iostream>

torch::Device try_gpu(int i = 0) {
  if (torch::cuda::device_count() >= static_cast<size_t>(i + 1))
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
  return torch::Device(torch::kCPU);
}

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "no GPU\n";
    return 0;
  }
  torch::Tensor embeddings;
  torch::load(embeddings, "sentence_embeddings.pt"); // [N, 768]
  auto projection = torch::randn({768, 128}, torch::device(try_gpu(1))) / 768.0;
  auto inputs = embeddings.cuda();
  auto projected = inputs.matmul(projection); // expect: placement-mixed-device
  auto normed = torch::nn::functional::normalize(projected, torch::nn::functional::NormalizeFuncOptions().dim(1));
  std::cout << normed.sizes() << "\n";
  return 0;
}
