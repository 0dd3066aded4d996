// issue 19 class 3 (device spellings), correct look-alike.
// CORRECT. As try_gpu_meets_current_cuda.cpp, but the device is taken from
// `try_gpu(1)` once and both the weights and the inputs go there.
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
  const auto device = try_gpu(1);
  auto projection = torch::randn({768, 128}, torch::device(device)) / 768.0;
  auto inputs = embeddings.to(device);
  auto projected = inputs.matmul(projection);
  auto normed = torch::nn::functional::normalize(projected, torch::nn::functional::NormalizeFuncOptions().dim(1));
  std::cout << normed.sizes() << "\n";
  return 0;
}
