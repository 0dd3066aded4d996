// issue 19 class 7 (consequences across functions), correct look-alike.
// CORRECT. As helper_discards_move_then_forward.cpp, but the helper keeps the
// moved frame: `frame = frame.to(device);`.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor preprocess(torch::Tensor frame, const torch::Device &device) {
  frame = frame.to(device);
  return frame.permute({2, 0, 1}).to(torch::kFloat).div(255.0).unsqueeze(0);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 1;
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = torch::jit::load(argv[1]);
  model.to(device);
  model.eval();
  torch::NoGradGuard no_grad;
  std::vector<uint8_t> pixels(480 * 640 * 3, 0);
  auto frame = torch::from_blob(pixels.data(), {480, 640, 3}, torch::kUInt8);
  auto output = model.forward({preprocess(frame, device)}).toTensor();
  std::cout << output.argmax(1) << "\n";
  return 0;
}
