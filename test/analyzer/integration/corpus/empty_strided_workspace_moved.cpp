// issue 19 class 1 (factories beyond the list): empty_strided, moved at once.
// BUG (create-then-move). A video inference loop keeps one channels-last
// staging buffer on the device and copies each decoded frame into it. The
// buffer is allocated with `torch::empty_strided(...)` on the host and moved
// at once: a host allocation and a copy of uninitialised memory, where
// `empty_strided` with the device in its options allocates there.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

bool read_frame(std::vector<uint8_t> &rgb, int64_t height, int64_t width) {
  static int frames = 0;
  rgb.assign(static_cast<size_t>(height * width * 3), static_cast<uint8_t>(frames % 255));
  return ++frames < 300;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: segment MODEL.pt\n";
    return 1;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module model = torch::jit::load(argv[1]);
  model.to(device);
  model.eval();
  const int64_t height = 720, width = 1280;
  auto staging = torch::empty_strided({1, 3, height, width}, {3 * height * width, 1, 3 * width, 3}, torch::kUInt8).to(device); // expect: placement-create-then-move

  torch::NoGradGuard no_grad;
  std::vector<uint8_t> rgb;
  int64_t frame = 0;
  while (read_frame(rgb, height, width)) {
    auto host = torch::from_blob(rgb.data(), {1, height, width, 3}, torch::kUInt8).permute({0, 3, 1, 2});
    staging.copy_(host);
    auto input = staging.to(torch::kFloat).div_(255.0);
    auto mask = model.forward({input}).toTensor().argmax(1);
    if (++frame % 100 == 0)
      std::cout << "frame " << frame << ": " << mask.sizes() << "\n";
  }
  return 0;
}
