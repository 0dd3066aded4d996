// pageable-non-blocking: camera frames wrapped with from_blob and uploaded with
// non_blocking. BUG. Each frame arrives in a std::vector<uint8_t> (pageable);
// from_blob wraps those bytes without copying, and the non_blocking upload of
// the wrapper is staged synchronously, so the capture loop stalls on every
// frame (the from_blob(...).cuda() upload of pytorch/pytorch#39649;
// google-deepmind/open_spiel#1488's from_blob over a std::vector; issue 23:
// "from_blob of a std::vector ... is pageable").
// Look-alikes: upload_video_frames_blocking.cpp, upload_video_frames_pinned_staging.cpp.
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
    auto on_device = pixels.to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    auto input = on_device.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat).div(255);
    auto mask = segmenter->forward(input).argmax(1);
    if (index % 300 == 0)
      std::cout << "frame " << index << ": " << mask.sum().item<int64_t>() << " foreground pixels\n";
  }
  return 0;
}
