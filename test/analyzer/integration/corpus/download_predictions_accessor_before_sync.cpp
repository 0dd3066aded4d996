// unsynchronized-read: predictions downloaded with non_blocking and walked
// with an accessor. BUG. The evaluation keeps each batch's predicted class on
// the GPU, downloads them all once after the loop with non_blocking=true, and
// fills the confusion matrix through accessor<int64_t, 1>() at once: the
// accessor reads pinned memory the copy has not yet written. PyTorch's
// tutorial on non_blocking and pin_memory() (pytorch/tutorials#2983):
// "cuda_tensor.to("cpu", non_blocking=True).mean() will produce garbage";
// the accessor pattern is open_spiel#1488's (".to(kCPU) + accessor<>").
// Look-alike: download_predictions_accessor_blocking.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential classifier(torch::nn::Flatten(), torch::nn::Linear(784, 256), torch::nn::ReLU(),
                                   torch::nn::Linear(256, 10));
  classifier->to(device);
  classifier->eval();
  auto test_loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      512);

  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> predictions;
  std::vector<torch::Tensor> labels;
  for (auto &batch : *test_loader) {
    auto logits = classifier->forward(batch.data.to(device));
    predictions.push_back(logits.argmax(1));
    labels.push_back(batch.target);
  }
  auto predicted_host = torch::cat(predictions).to(torch::kCPU, /*non_blocking=*/true);
  auto label_host = torch::cat(labels);
  auto predicted = predicted_host.accessor<int64_t, 1>(); // expect: placement-unsynchronized-read
  auto truth = label_host.accessor<int64_t, 1>();
  int64_t confusion[10][10] = {};
  for (int64_t i = 0; i < predicted.size(0); ++i)
    ++confusion[truth[i]][predicted[i]];
  for (int row = 0; row < 10; ++row) {
    for (int col = 0; col < 10; ++col)
      std::cout << confusion[row][col] << (col == 9 ? '\n' : ' ');
  }
  return 0;
}
