// placement-unguarded-cuda (scored apart).
// BUG. The same helper as helper_to_gpu_guarded_callers, but the benchmark
// mode calls it without the check: `--bench` dies on a machine with no GPU.
// And the benchmark loop uploads the same host batch on each of its ten
// calls (placement-transfer-in-loop through the helper: upload it once,
// before the loop).
#include <torch/torch.h>

#include <cstring>
#include <iostream>

struct Net : torch::nn::Module {
  Net() : fc1(register_module("fc1", torch::nn::Linear(20, 64))),
          fc2(register_module("fc2", torch::nn::Linear(64, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

torch::Tensor run_on_gpu(Net &net, const torch::Tensor &batch) {
  net.to(torch::kCUDA); // expect: placement-unguarded-cuda
  return net.forward(batch.to(torch::kCUDA)).cpu(); // expect: placement-unguarded-cuda, placement-transfer-in-loop
}

int main(int argc, char **argv) {
  Net net;
  auto batch = torch::randn({8, 20});
  if (argc > 1 && std::strcmp(argv[1], "--bench") == 0) {
    for (int i = 0; i < 10; ++i)
      run_on_gpu(net, batch);
    return 0;
  }
  torch::Tensor out = torch::cuda::is_available() ? run_on_gpu(net, batch) : net.forward(batch);
  std::cout << out.argmax(1) << "\n";
  return 0;
}
