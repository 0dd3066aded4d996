// issue 19 class 15 (availability through a flag): `use_cuda = !no_cuda && is_available()`, then `if (use_cuda)`.
// CORRECT. The PyTorch examples' idiom: a `--no-cuda` option and a flag
// computed once from it and from `cuda::is_available()`. Every CUDA request
// is under `if (use_cuda)` or `use_cuda ? ... : ...`, so it is guarded: the
// `&&` holds the check, and later branches on the same flag are correlated
// with it.
// Look-alike: use_cuda_flag_from_option_only.cpp.
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
  const bool use_cuda = !no_cuda && torch::cuda::is_available();
  std::cout << (use_cuda ? "training on the GPU\n" : "training on the CPU\n");

  Net model;
  if (use_cuda)
    model->to(torch::kCUDA);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(use_cuda ? 1 : 0));
  for (int epoch = 1; epoch <= 10; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data, target = batch.target;
      if (use_cuda) {
        data = data.cuda();
        target = target.cuda();
      }
      optimizer.zero_grad();
      auto loss = torch::nll_loss(model->forward(data), target);
      loss.backward();
      optimizer.step();
    }
  }
  return 0;
}
