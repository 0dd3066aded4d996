// issue 19 class 12 (a device value that places nothing), pl.
// CORRECT. The program names the CUDA device, prints it and compares with it
// before choosing it under `pl::cuda::is_available()`. Constructing,
// printing or comparing a `pl::Device(pl::kCUDA)` places nothing; only the
// moves and allocations on `device` do, and `device` is chosen by the check.
#include <pl/pl.h>

#include <iostream>

int main() {
  const pl::Device gpu(pl::kCUDA, 0);
  std::cout << "preferred: " << gpu.str() << "\n";
  const pl::Device device = pl::cuda::is_available() ? gpu : pl::Device(pl::kCPU);
  if (device == gpu)
    std::cout << "using the GPU\n";
  pl::nn::Linear model(8, 2);
  model->to(device);
  pl::NoGradGuard no_grad;
  auto out = model(pl::ones({4, 8}, pl::device(device)));
  std::cout << out.sum().item<float>() << "\n";
  return 0;
}
