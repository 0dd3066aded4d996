// Class: placement-pageable-non-blocking, correct look-alike.
// Modelled on: vLLM#54292 (non_blocking uploads from pageable memory that
// silently block) and C++ video-inference pipelines that decode each frame
// into a std::vector<uint8_t> and upload it with non_blocking=true,
// expecting the copy to overlap the previous frame's inference.
// Why it is not a bug: the decoded frame is first copied into pinned memory
// with pin_memory() (the caching host allocator keeps that block alive until
// the copy has run), so the non_blocking upload is truly asynchronous.
// Twin: pageable_frame_prefetcher_from_blob.cpp
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

namespace video {

struct FrameSpec {
  int64_t height = 360;
  int64_t width = 640;
};

class FramePrefetcher {
 public:
  FramePrefetcher(FrameSpec spec, torch::Device device)
      : spec_(spec), device_(device), staging_(spec.height * spec.width * 3) {}

  torch::Tensor next(int64_t frame_index) {
    decode_into(frame_index);
    auto frame = torch::from_blob(staging_.data(), {spec_.height, spec_.width, 3}, torch::kUInt8)
                     .pin_memory();
    return frame.to(device_, /*non_blocking=*/true);
  }

 private:
  void decode_into(int64_t frame_index) {
    for (size_t i = 0; i < staging_.size(); ++i) {
      staging_[i] = static_cast<uint8_t>((i + frame_index * 7) % 251);
    }
  }

  FrameSpec spec_;
  torch::Device device_;
  std::vector<uint8_t> staging_;
};

}  // namespace video

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "GPU pipeline: no CUDA device found\n";
    return 1;
  }
  const torch::Device device(torch::kCUDA);
  torch::nn::Conv2d detector(torch::nn::Conv2dOptions(3, 8, 5).stride(4));
  detector->to(device);
  detector->eval();

  video::FramePrefetcher prefetcher(video::FrameSpec{}, device);
  torch::NoGradGuard no_grad;
  auto frame = prefetcher.next(0);
  double activity = 0.0;
  for (int64_t f = 1; f <= 120; ++f) {
    auto input = frame.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat).div_(255.0);
    auto response = detector->forward(input);
    frame = prefetcher.next(f);
    if (f % 30 == 0) {
      activity = response.abs().mean().item<double>();
      std::cout << "frame " << f << " activity " << activity << '\n';
    }
  }
}
