// issue 8 class 12: a sync in a while loop.
// BUG. The loop walks the data loader with an explicit iterator in a `while`
// and stops on a non-finite loss, testing `loss.item<float>()` on every step:
// a device-to-host sync per step whenever `device` is CUDA. (Checking
// `torch::isfinite(loss)` on the device and reading it every N steps, or
// after the loop, avoids it.)
#include <torch/torch.h>

#include <cmath>
#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 300), torch::nn::Tanh(),
                              torch::nn::Linear(300, 10));
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.5));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data/mnist").map(torch::data::transforms::Stack<>()), 32);

  auto it = loader->begin();
  int64_t step = 0;
  while (it != loader->end()) {
    auto data = it->data.to(device);
    auto target = it->target.to(device);
    optimizer.zero_grad();
    auto loss = torch::cross_entropy_loss(model->forward(data), target);
    if (!std::isfinite(loss.item<float>())) { // expect: placement-transfer-in-loop
      std::cerr << "diverged at step " << step << "\n";
      return 1;
    }
    loss.backward();
    optimizer.step();
    ++it;
    ++step;
  }
  std::cout << "trained " << step << " steps\n";
  return 0;
}
