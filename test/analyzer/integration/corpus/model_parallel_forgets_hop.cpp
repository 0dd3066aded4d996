// issue 19 class 6 (model parallel): a model split over two GPUs whose forward forgets one hop.
// BUG (mixed-device). PyTorch's model-parallel tutorial (ToyMpModel) in C++:
// net1 lives on cuda:0, net2 on cuda:1. forward moves the input to cuda:0 but
// hands net1's output to net2 without `.to(cuda:1)`. The whole program runs
// only after checking that there are two GPUs.
// Look-alike: model_parallel_hops_both.cpp.
#include <torch/torch.h>

#include <iostream>

struct ToyMpModelImpl : torch::nn::Module {
  ToyMpModelImpl()
      : net1(register_module("net1", torch::nn::Linear(10, 10))),
        relu(register_module("relu", torch::nn::ReLU())),
        net2(register_module("net2", torch::nn::Linear(10, 5))) {
    net1->to(torch::Device(torch::kCUDA, 0));
    net2->to(torch::Device(torch::kCUDA, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = relu(net1(x.to(torch::Device(torch::kCUDA, 0))));
    return net2(x); // expect: placement-mixed-device
  }
  torch::nn::Linear net1;
  torch::nn::ReLU relu;
  torch::nn::Linear net2;
};
TORCH_MODULE(ToyMpModel);

int main() {
  if (torch::cuda::device_count() < 2) {
    std::cerr << "needs two GPUs\n";
    return 1;
  }
  ToyMpModel model;
  torch::nn::MSELoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), 0.001);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto outputs = model->forward(torch::randn({20, 10}));
    auto labels = torch::randn({20, 5}, torch::Device(torch::kCUDA, 1));
    loss_fn(outputs, labels).backward();
    optimizer.step();
  }
  return 0;
}
