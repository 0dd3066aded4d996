// placement-unguarded-cuda (scored apart).
// CORRECT. A helper moves the model and a batch to the GPU; every place
// that calls it checks torch::cuda::is_available() first, so the helper's
// own `kCUDA` needs no check of its own.
#include <torch/torch.h>

#include <iostream>

struct Net : torch::nn::Module {
  Net() : fc1(register_module("fc1", torch::nn::Linear(20, 64))),
          fc2(register_module("fc2", torch::nn::Linear(64, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

torch::Tensor run_on_gpu(Net &net, const torch::Tensor &batch) {
  net.to(torch::kCUDA);
  return net.forward(batch.to(torch::kCUDA)).cpu();
}

torch::Tensor run_on_cpu(Net &net, const torch::Tensor &batch) {
  net.to(torch::kCPU);
  return net.forward(batch);
}

int main() {
  Net net;
  auto batch = torch::randn({8, 20});
  torch::Tensor out;
  if (torch::cuda::is_available())
    out = run_on_gpu(net, batch);
  else
    out = run_on_cpu(net, batch);
  std::cout << out.argmax(1) << "\n";
  return 0;
}
