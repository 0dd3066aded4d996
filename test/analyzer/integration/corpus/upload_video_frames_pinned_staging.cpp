// pageable-non-blocking: camera frames copied into pinned staging memory and
// uploaded with non_blocking. CORRECT. As upload_video_frames_from_blob_pageable.cpp,
// but each frame is first copied into a tensor made with
// TensorOptions().pinned_memory(true) (libtorch's caching host allocator
// keeps a block until the copies reading it are done), and the non_blocking
// upload reads that pinned tensor (NVIDIA/TensorRT-LLM#17234's pinned staging
// for H2D copies).
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

// Stands for the camera driver: one 720p BGR frame.
std::vector<uint8_t> grab_frame(int index) {
  return std::vector<uint8_t>(720 * 1280 * 3, static_cast<uint8_t>(index % 256));
}

int main() {
  if (!torch::cuda::is_available())
    return 0;
  torch::Device device(torch::kCUDA);
  torch::nn::Sequential segmenter(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), torch::nn::ReLU(),
                                  torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 2, 1)));
  segmenter->to(device);
  segmenter->eval();
  torch::NoGradGuard no_grad;
  for (int index = 0; index < 3000; ++index) {
    std::vector<uint8_t> frame = grab_frame(index);
    auto pixels = torch::from_blob(frame.data(), {720, 1280, 3}, torch::kUInt8);
    auto staging = torch::empty({720, 1280, 3}, torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(true));
    staging.copy_(pixels);
    auto on_device = staging.to(device, /*non_blocking=*/true);
    auto input = on_device.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat).div(255);
    auto mask = segmenter->forward(input).argmax(1);
    if (index % 300 == 0)
      std::cout << "frame " << index << ": " << mask.sum().item<int64_t>() << " foreground pixels\n";
  }
  return 0;
}
