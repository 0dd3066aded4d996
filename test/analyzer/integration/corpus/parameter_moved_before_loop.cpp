// issue 8 class 15: an unchanged parameter of unknown device moved inside a loop.
// CORRECT. `evaluate` takes the class weights by const reference and moves
// them to `device` once, before the batch loop.
// Look-alike of parameter_moved_in_loop.cpp.
#include <torch/torch.h>

#include <iostream>

template <typename Loader>
double evaluate(torch::nn::Sequential &model, Loader &loader, const torch::Tensor &class_weights,
                torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  torch::Tensor total = torch::zeros({}, torch::device(device));
  int64_t batches = 0;
  const torch::Tensor weights = class_weights.to(device);
  for (auto &batch : loader) {
    auto logits = model->forward(batch.data.to(device));
    total += torch::cross_entropy_loss(logits, batch.target.to(device), weights);
    ++batches;
  }
  return total.item<double>() / batches;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 10));
  torch::load(model, "model.pt");
  model->to(device);
  torch::Tensor class_weights = torch::ones({10});
  class_weights[3] = 2.0;
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      500);
  std::cout << "weighted test loss " << evaluate(model, *loader, class_weights, device) << "\n";
  return 0;
}
