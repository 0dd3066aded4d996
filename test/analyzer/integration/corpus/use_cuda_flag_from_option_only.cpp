// issue 19 class 15 (availability through a flag), buggy look-alike.
// BUG (unguarded-cuda, at each request). As use_cuda_flag_from_availability.cpp,
// but the flag comes from the command line only: `use_cuda = !no_cuda`. On a
// machine without a GPU the default run asks for CUDA and fails.
#include <torch/torch.h>

#include <cstring>
#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, 10))) {}
  torch::Tensor forward(const torch::Tensor &x) { return torch::log_softmax(fc2(torch::relu(fc1(x.flatten(1)))), 1); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main(int argc, char **argv) {
  bool no_cuda = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--no-cuda") == 0)
      no_cuda = true;
  const bool use_cuda = !no_cuda;
  std::cout << (use_cuda ? "training on the GPU\n" : "training on the CPU\n");

  Net model;
  if (use_cuda)
    model->to(torch::kCUDA); // expect: placement-unguarded-cuda
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(use_cuda ? 1 : 0));
  for (int epoch = 1; epoch <= 10; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data, target = batch.target;
      if (use_cuda) {
        data = data.cuda(); // expect: placement-unguarded-cuda
        target = target.cuda(); // expect: placement-unguarded-cuda
      }
      optimizer.zero_grad();
      auto loss = torch::nll_loss(model->forward(data), target);
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
