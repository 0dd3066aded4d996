// issue 19 class 9 (module internals): a TorchScript module loaded onto the device and fed a host input.
// BUG (mixed-device). A YOLO-style detector exported with TorchScript is
// loaded straight onto the device with `torch::jit::load(path, device)`; the
// preprocessed image is pushed into the inputs on the cpu.
// Look-alike: script_module_loaded_on_device_input_moved.cpp.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor letterbox(const std::vector<uint8_t> &bgr, int64_t height, int64_t width, int64_t size) {
  auto image = torch::from_blob(const_cast<uint8_t *>(bgr.data()), {height, width, 3}, torch::kUInt8)
                   .flip({2})
                   .permute({2, 0, 1})
                   .to(torch::kFloat)
                   .div(255.0)
                   .unsqueeze(0);
  return torch::nn::functional::interpolate(
      image, torch::nn::functional::InterpolateFuncOptions().size(std::vector<int64_t>{size, size}).mode(torch::kBilinear).align_corners(false));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: detect MODEL.torchscript\n";
    return 1;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module detector;
  try {
    detector = torch::jit::load(argv[1], device);
  } catch (const c10::Error &e) {
    std::cerr << "error loading the model\n";
    return 1;
  }
  detector.eval();
  torch::NoGradGuard no_grad;
  std::vector<uint8_t> frame(720 * 1280 * 3, 114);
  auto input = letterbox(frame, 720, 1280, 640);
  auto preds = detector.forward({input}).toTuple()->elements()[0].toTensor(); // expect: placement-mixed-device
  auto confident = preds.select(2, 4) > 0.25;
  std::cout << confident.sum().item<int64_t>() << " candidate boxes\n";
  return 0;
}
