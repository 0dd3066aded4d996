// issue 8 class 10: a TorchScript module applied to IValues holding cpu tensors.
// CORRECT. The scripted model is moved to `device` with Module::to (in place),
// and the preprocessed image is moved to `device` as it is pushed into the
// std::vector<torch::jit::IValue>, so `module.forward(inputs)` sees one device.
// Look-alike of jit_module_cpu_inputs.cpp.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor preprocess(std::vector<float> &pixels, int64_t height, int64_t width) {
  auto image = torch::from_blob(pixels.data(), {height, width, 3}, torch::kFloat).clone();
  image = image.permute({2, 0, 1}).div(255.0);
  auto mean = torch::tensor({0.485, 0.456, 0.406}).view({3, 1, 1});
  auto stddev = torch::tensor({0.229, 0.224, 0.225}).view({3, 1, 1});
  return ((image - mean) / stddev).unsqueeze(0);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: classify MODEL.pt\n";
    return 1;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module module = torch::jit::load(argv[1]);
  module.to(device);
  module.eval();

  std::vector<float> pixels(224 * 224 * 3, 128.0f);
  torch::NoGradGuard no_grad;
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(preprocess(pixels, 224, 224).to(device));
  torch::Tensor logits = module.forward(inputs).toTensor();
  auto top = logits.softmax(1).topk(5);
  std::cout << std::get<1>(top).cpu() << "\n";
  return 0;
}
