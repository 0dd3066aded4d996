// issue 8 class 11: a sync every iteration on a tensor whose device is a Device variable.
// BUG. The running loss is read with `loss.item<double>()` on every batch.
// `device` is CUDA on any machine with a GPU, where each item() copies the
// value to the host and waits for the device to finish the step.
// Look-alike of loss_accumulated_on_device.cpp.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 512))),
        fc2(register_module("fc2", torch::nn::Linear(512, 10))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return fc2(torch::dropout(torch::relu(fc1(x.view({x.size(0), 784}))), 0.2, is_training()));
  }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  auto dataset = torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>());
  const size_t size = *dataset.size();
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(dataset), 128);

  for (int epoch = 1; epoch <= 10; ++epoch) {
    double epoch_loss = 0.0;
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model(data), target);
      loss.backward();
      optimizer.step();
      epoch_loss += loss.item<double>() * data.size(0); // expect: placement-transfer-in-loop
    }
    std::cout << "epoch " << epoch << " mean loss " << epoch_loss / size << "\n";
  }
  return 0;
}
