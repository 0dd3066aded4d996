// pageable-non-blocking: a batch-assembly helper wraps a caller-owned
// std::vector with from_blob and returns a pinned copy, which the caller
// uploads with non_blocking. CORRECT. As upload_assembled_from_blob_pageable.cpp,
// but assemble_batch() ends with pin_memory(): the upload reads pinned memory
// and is asynchronous.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

struct Frame {
  std::vector<uint8_t> rgb; // height * width * 3, interleaved
};

constexpr int64_t kHeight = 224, kWidth = 224;

// Writes the frames as planar, normalised floats into `staging` and returns a
// pinned [frames, 3, height, width] copy of it.
torch::Tensor assemble_batch(const std::vector<Frame> &frames, std::vector<float> &staging) {
  const int64_t plane = kHeight * kWidth;
  staging.resize(frames.size() * 3 * plane);
  for (size_t f = 0; f < frames.size(); ++f)
    for (int64_t p = 0; p < plane; ++p)
      for (int64_t c = 0; c < 3; ++c)
        staging[(f * 3 + c) * plane + p] = frames[f].rgb[p * 3 + c] / 255.0f;
  return torch::from_blob(staging.data(), {static_cast<int64_t>(frames.size()), 3, kHeight, kWidth}, torch::kFloat)
      .pin_memory();
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential backbone(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2)), torch::nn::ReLU(),
                                 torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(16, 8));
  backbone->to(device);
  backbone->eval();
  torch::NoGradGuard no_grad;
  std::vector<float> staging;
  std::vector<Frame> frames(8, Frame{std::vector<uint8_t>(kHeight * kWidth * 3)});
  for (int64_t batch_index = 0; batch_index < 1000; ++batch_index) {
    for (auto &frame : frames)
      frame.rgb.assign(frame.rgb.size(), static_cast<uint8_t>(batch_index % 256));
    auto host_batch = assemble_batch(frames, staging);
    auto batch = host_batch.to(device, /*non_blocking=*/true);
    auto scores = backbone->forward(batch);
    if (batch_index % 100 == 0)
      std::cout << scores.argmax(1) << "\n";
  }
  return 0;
}
