// issue 8 class 11: a sync every iteration on a tensor whose device is a Device variable.
// CORRECT. The running loss is accumulated on the device (`loss.detach()`,
// a 0-dim tensor on `device`) and read with item() once per epoch, after the
// batch loop: no host sync inside the hot loop.
// Look-alike of item_every_batch_device_variable.cpp.
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
    torch::Tensor epoch_loss = torch::zeros({}, torch::device(device));
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model(data), target);
      loss.backward();
      optimizer.step();
      epoch_loss += loss.detach() * data.size(0);
    }
    std::cout << "epoch " << epoch << " mean loss " << epoch_loss.item<double>() / size << "\n";
  }
  return 0;
}
