// issue 19 class 1 (factories beyond the list), correct look-alike.
// CORRECT. As sample_weights_full_like_host.cpp, but the weights are made like
// the target after it moved, so `full_like` fills them on the device.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 512))),
        fc2(register_module("fc2", torch::nn::Linear(512, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x.flatten(1)))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t rare_class = 7;
  Net net;
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      64);
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      auto weights = torch::full_like(target, 1.0, torch::kFloat);
      weights.masked_fill_(target == rare_class, 4.0);
      optimizer.zero_grad();
      auto per_sample = torch::nn::functional::cross_entropy(
          net->forward(data), target, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
      auto loss = (per_sample * weights).sum() / weights.sum();
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
