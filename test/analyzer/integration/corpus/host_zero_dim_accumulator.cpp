// issue 8 class 1 (look-alike): a 0-dim cpu tensor as the target of an in-place op.
// BUG. The epoch loss is accumulated in `torch::zeros({})`, a 0-dim tensor on
// the cpu, with `running += loss.detach()`. Scalar promotion lets a 0-dim cpu
// tensor be an *input* of an op on another device, never its output: the
// in-place add into a cpu tensor of a device value fails.
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
    torch::Tensor running = torch::zeros({});
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model(data), target);
      loss.backward();
      optimizer.step();
      running += loss.detach() * data.size(0); // expect: placement-mixed-device
    }
    std::cout << "epoch " << epoch << " mean loss " << running.item<double>() / size << "\n";
  }
  return 0;
}
