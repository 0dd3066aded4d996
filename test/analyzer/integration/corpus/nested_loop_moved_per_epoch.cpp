// issue 8 class 12: nested loops, a transfer invariant in the inner loop.
// CORRECT. Curriculum training: the per-class loss weights change once per
// epoch (computed on the host in the outer loop) and are moved to `device`
// there, once per epoch, not in the batch loop.
// Look-alike of nested_loop_inner_invariant.cpp.
#include <torch/torch.h>

#include <iostream>

torch::Tensor curriculum_weights(int epoch, int64_t classes) {
  auto ramp = torch::linspace(0.0, 1.0, classes);
  return 1.0 + ramp * std::min(1.0, epoch / 10.0);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 128), torch::nn::ReLU(),
                              torch::nn::Linear(128, 10));
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 64);

  for (int epoch = 0; epoch < 20; ++epoch) {
    torch::Tensor weights = curriculum_weights(epoch, 10).to(device);
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::nll_loss(torch::log_softmax(model->forward(data), 1), target, weights);
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << "\n";
  }
  return 0;
}
