// pageable-non-blocking: a prefetcher keeps its host staging buffer as a
// member and uploads it with non_blocking. CORRECT. As
// upload_prefetcher_member_pageable.cpp, but the constructor makes the staging
// buffer with TensorOptions().pinned_memory(true), so the upload is
// asynchronous; the event keeps the next fill from overwriting a buffer still
// in flight (NVIDIA/TensorRT-LLM#17234's pinned staging for H2D copies).
#include "cuda_stream_api.h"

#include <vector>

class ImagePrefetcher {
public:
  ImagePrefetcher(torch::Device device, int64_t batch_size)
      : device_(device), staging_(torch::empty({batch_size, 3, 224, 224}, torch::TensorOptions().pinned_memory(true))) {}

  // The next batch on the device; the copy is queued, not waited for.
  torch::Tensor next(std::vector<float> &decoded) {
    uploaded_.synchronize(); // the previous upload has read the staging buffer
    staging_.copy_(torch::from_blob(decoded.data(), staging_.sizes()));
    auto batch = staging_.to(device_, /*non_blocking=*/true);
    uploaded_.record();
    return batch;
  }

private:
  torch::Device device_;
  torch::Tensor staging_;
  at::cuda::CUDAEvent uploaded_;
};

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential backbone(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 7).stride(2).padding(3)),
                                 torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(),
                                 torch::nn::Linear(64, 1000));
  backbone->to(device);
  backbone->eval();
  torch::NoGradGuard no_grad;
  ImagePrefetcher prefetcher(device, 32);
  std::vector<float> decoded(32 * 3 * 224 * 224);
  for (int batch = 0; batch < 500; ++batch) {
    for (size_t i = 0; i < decoded.size(); ++i)
      decoded[i] = static_cast<float>((i + batch) % 255) / 255.0f; // stands for the JPEG decoder
    auto images = prefetcher.next(decoded);
    auto logits = backbone->forward(images);
    (void)logits;
  }
  return 0;
}
