// Rule: placement-pageable-non-blocking (a pinned uint8 frame converted to float on
// the host by a preprocessing method; the converted tensor is what is uploaded).
// Modelled on: C++ video-analytics pipelines (camera frames captured into a
// page-locked staging tensor, then normalised "before the GPU"), and
// pytorch/pytorch#42539 / the pinmem_nonblock tutorial: non_blocking overlaps only
// from pinned memory, and every host op allocates its result in ordinary memory.
// Why it is a bug: the capture buffer is pinned, but Preprocess::operator() returns
// `frame.permute(...).to(torch::kFloat).div_(255).unsqueeze(0)`: the conversion
// allocates a new pageable tensor, and that is what the per-frame
// `to(device, /*non_blocking=*/true)` reads.
// Twin: none (uploading the pinned uint8 frame and converting on the device would be the fix).
#include <torch/torch.h>

#include <chrono>
#include <iostream>

class Camera {
 public:
  Camera(int64_t h, int64_t w, bool pinned)
      : frame_(torch::empty({h, w, 3}, torch::TensorOptions().dtype(torch::kByte).pinned_memory(pinned))) {}
  // Fills the staging buffer in place with the next frame (a synthetic one here).
  const torch::Tensor &grab() {
    frame_.random_(0, 256);
    return frame_;
  }

 private:
  torch::Tensor frame_;
};

struct Preprocess {
  torch::Tensor operator()(const torch::Tensor &frame_hwc) const {
    return frame_hwc.permute({2, 0, 1}).to(torch::kFloat).div_(255.0).unsqueeze(0);
  }
};

int main(int argc, char **argv) {
  const int frames = argc > 1 ? std::stoi(argv[1]) : 120;
  const bool cuda = torch::cuda::is_available();
  const torch::Device device = cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  torch::nn::Sequential net(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).stride(2)), torch::nn::ReLU(),
                            torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions(1)), torch::nn::Flatten(),
                            torch::nn::Linear(8, 4));
  net->to(device);
  net->eval();

  Camera camera(240, 320, /*pinned=*/cuda);
  Preprocess preprocess;
  torch::NoGradGuard no_grad;
  auto counts = torch::zeros({4}, torch::TensorOptions().dtype(torch::kLong).device(device));
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < frames; ++i) {
    auto input = preprocess(camera.grab()).to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    counts += torch::one_hot(net->forward(input).argmax(1), 4).sum(0);
  }
  const auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << frames / secs << " fps, class counts " << counts.cpu() << "\n";
  return 0;
}
