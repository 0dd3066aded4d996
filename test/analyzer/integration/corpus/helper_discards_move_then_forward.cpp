// issue 19 class 7 (consequences across functions): a helper discards its move; the caller feeds the result to the model.
// BUG (discarded-transfer in the helper, mixed-device in the caller). An
// inference service's `preprocess` "moves" the frame with `frame.to(device);`
// and returns the normalised cpu tensor; the caller applies the model on
// `device` to it. The discarded move is one finding; the call that fails
// because of it is another.
// Look-alike: helper_moves_then_forward.cpp.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor preprocess(torch::Tensor frame, const torch::Device &device) {
  frame.to(device); // expect: placement-discarded-transfer
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
  auto output = model.forward({preprocess(frame, device)}).toTensor(); // expect: placement-mixed-device
  std::cout << output.argmax(1) << "\n";
  return 0;
}
