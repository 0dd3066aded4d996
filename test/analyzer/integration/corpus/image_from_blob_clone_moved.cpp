// issue 19 class 1 (factories beyond the list): from_blob(...).clone() moved, correct by decision.
// CORRECT. An image classifier's preprocessing wraps the decoded pixels with
// `torch::from_blob`, clones them (the buffer is reused for the next file) and
// moves the clone to the device. The data exists on the host already: nothing
// here can be created on the device instead, so it is not
// placement-create-then-move (README.md records the decision: `from_blob`,
// with or without `.clone()`, and `torch::tensor(std::vector)` of data read at
// run time are host data, not factories). The normalisation constants are
// created with the device in their options.
#include <torch/script.h>
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

bool decode_ppm(const std::string &path, std::vector<uint8_t> &pixels, int64_t &height, int64_t &width) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int maxval = 0;
  if (!(in >> magic >> width >> height >> maxval) || magic != "P6")
    return false;
  in.get();
  pixels.resize(static_cast<size_t>(height * width * 3));
  return static_cast<bool>(in.read(reinterpret_cast<char *>(pixels.data()), static_cast<std::streamsize>(pixels.size())));
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: classify MODEL.pt IMAGE.ppm...\n";
    return 1;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module model = torch::jit::load(argv[1]);
  model.to(device);
  model.eval();
  const auto options = torch::TensorOptions().dtype(torch::kFloat).device(device);
  auto mean = torch::tensor({0.485f, 0.456f, 0.406f}, options).view({1, 3, 1, 1});
  auto stddev = torch::tensor({0.229f, 0.224f, 0.225f}, options).view({1, 3, 1, 1});

  torch::NoGradGuard no_grad;
  std::vector<uint8_t> pixels;
  std::vector<torch::Tensor> classes;
  for (int i = 2; i < argc; ++i) {
    int64_t height = 0, width = 0;
    if (!decode_ppm(argv[i], pixels, height, width))
      continue;
    auto image = torch::from_blob(pixels.data(), {1, height, width, 3}, torch::kUInt8).clone().to(device);
    auto input = (image.permute({0, 3, 1, 2}).to(torch::kFloat).div(255.0) - mean) / stddev;
    auto probs = torch::softmax(model.forward({input}).toTensor(), 1);
    classes.push_back(probs.argmax(1));
  }
  if (!classes.empty())
    std::cout << "classes: " << torch::cat(classes).cpu() << "\n";
  return 0;
}
