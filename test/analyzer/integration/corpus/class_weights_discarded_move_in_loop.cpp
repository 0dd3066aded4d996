// issue 19 class 17 (one bug, one report): an unchanged tensor's move discarded inside a loop.
// BUG (discarded-transfer; the loss then mixes devices). Class weights
// computed on the host are "moved" at the top of every batch with
// `class_weights.to(device);`, result thrown away. That is one bug, the
// discarded transfer: it is not also an invariant transfer in a loop (no
// copy is kept, nothing to hoist). The weighted loss that fails because of
// it is reported as mixed-device.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor label_counts;
  torch::load(label_counts, "label_counts.pt"); // [10] float
  auto class_weights = label_counts.sum() / (label_counts * label_counts.size(0));
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 200), torch::nn::ReLU(),
                              torch::nn::Linear(200, 10), torch::nn::LogSoftmax(1));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 64);
  for (auto &batch : *loader) {
    class_weights.to(device); // expect: placement-discarded-transfer
    auto output = model->forward(batch.data.to(device));
    auto loss = torch::nll_loss(output, batch.target.to(device), class_weights); // expect: placement-mixed-device
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
