// issue 19 class 10 (loops): `.item()` on the halves of a pair returned by a step function, every batch.
// BUG (transfer-in-loop, twice). `train_step` returns {loss, correct} as a
// std::pair of device tensors; the epoch loop reads both with `.item()` on
// every batch, two device-to-host syncs per step.
#include <torch/torch.h>

#include <iostream>
#include <utility>

std::pair<torch::Tensor, torch::Tensor> train_step(torch::nn::Sequential &model, torch::optim::Optimizer &optimizer,
                                                   const torch::Tensor &x, const torch::Tensor &y) {
  optimizer.zero_grad();
  auto logits = model->forward(x);
  auto loss = torch::nn::functional::cross_entropy(logits, y);
  loss.backward();
  optimizer.step();
  return {loss.detach(), logits.argmax(1).eq(y).sum()};
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(3 * 32 * 32, 512), torch::nn::ReLU(),
                              torch::nn::Linear(512, 10));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::Tensor images, labels;
  torch::load(images, "cifar10_images.pt");
  torch::load(labels, "cifar10_labels.pt");
  for (int epoch = 0; epoch < 10; ++epoch) {
    double epoch_loss = 0.0;
    int64_t epoch_correct = 0;
    for (int64_t i = 0; i + 128 <= images.size(0); i += 128) {
      auto x = images.narrow(0, i, 128).to(device);
      auto y = labels.narrow(0, i, 128).to(device);
      auto result = train_step(model, optimizer, x, y);
      epoch_loss += result.first.item<double>(); // expect: placement-transfer-in-loop
      epoch_correct += result.second.item<int64_t>(); // expect: placement-transfer-in-loop
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss << " correct " << epoch_correct << "\n";
  }
  return 0;
}
