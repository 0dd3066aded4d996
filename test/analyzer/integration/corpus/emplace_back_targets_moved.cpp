// issue 8 class 7: vectors filled with emplace_back in a loop, then cat.
// CORRECT. The evaluation loop collects the predictions and the targets, both
// moved to `device`, with emplace_back; after the loop the two concatenations
// are compared on one device. Look-alike of emplace_back_targets_on_cpu.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)), torch::nn::ReLU(),
                              torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions(7)),
                              torch::nn::Flatten(), torch::nn::Linear(8 * 7 * 7, 10));
  torch::load(model, "model.pt");
  model->to(device);
  model->eval();
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      256);

  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> predictions;
  std::vector<torch::Tensor> targets;
  for (auto &batch : *loader) {
    predictions.emplace_back(model->forward(batch.data.to(device)).argmax(1));
    targets.emplace_back(batch.target.to(device));
  }
  auto all_predictions = torch::cat(predictions);
  auto all_targets = torch::cat(targets);
  auto accuracy = all_predictions.eq(all_targets).to(torch::kFloat).mean();
  std::cout << "accuracy " << accuracy.item<float>() << "\n";
  return 0;
}
