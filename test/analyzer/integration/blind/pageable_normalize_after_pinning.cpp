// Class: placement-pageable-non-blocking, with the bug.
// Modelled on: vLLM#54292 and PyTorch forum threads "pin_memory has no
// effect / non_blocking copy still synchronous": the loader pins the raw
// uint8 batch, but the preprocessing normalises it on the host before the
// upload, and the normalised tensor is a fresh, pageable allocation.
// Why it is a bug: (x / 255 - mean) / std allocates its result in ordinary
// memory although the input was pinned, so the non_blocking upload of the
// result is staged synchronously.
// Twin: pageable_normalize_after_pinning_fixed.cpp
#include <torch/torch.h>

#include <iostream>
#include <vector>

class Preprocessor {
 public:
  Preprocessor(std::vector<float> mean, std::vector<float> stddev, torch::Device device)
      : device_(device),
        mean_(torch::tensor(mean).view({1, 3, 1, 1})),
        std_(torch::tensor(stddev).view({1, 3, 1, 1})) {}

  torch::Tensor upload(const torch::Tensor& pinned_batch) const {
    auto x = (pinned_batch.to(torch::kFloat) / 255.0 - mean_) / std_;
    return x.to(device_, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
  }

 private:
  torch::Device device_;
  torch::Tensor mean_;
  torch::Tensor std_;
};

std::vector<torch::Tensor> load_pinned_batches(int count) {
  std::vector<torch::Tensor> batches;
  auto options = torch::TensorOptions(torch::kUInt8).pinned_memory(true);
  for (int i = 0; i < count; ++i) batches.push_back(torch::randint(0, 256, {32, 3, 64, 64}, options));
  return batches;
}

int main() {
  if (!torch::cuda::is_available()) {
    std::cout << "no GPU: nothing to benchmark\n";
    return 0;
  }
  const torch::Device device(torch::kCUDA, 0);
  Preprocessor pre({0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}, device);

  torch::nn::Sequential net(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)),
                            torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(),
                            torch::nn::Linear(16, 10));
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);

  for (int epoch = 0; epoch < 3; ++epoch) {
    auto batches = load_pinned_batches(16);
    auto total = torch::zeros({}, torch::device(device));
    for (const auto& raw : batches) {
      auto x = pre.upload(raw);
      auto target = torch::randint(0, 10, {x.size(0)}, torch::TensorOptions(torch::kLong).device(device));
      opt.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), target);
      loss.backward();
      opt.step();
      total += loss.detach();
    }
    std::cout << "epoch " << epoch << " loss " << (total / 16).item<float>() << '\n';
  }
}
