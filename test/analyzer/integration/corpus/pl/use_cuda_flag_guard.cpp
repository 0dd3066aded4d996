// issue 19 class 15 (availability through a flag), pl.
// CORRECT. `use_cuda = !force_cpu && pl::cuda::is_available()` is computed
// once; every CUDA request is under `if (use_cuda)` or `use_cuda ? ... : ...`.
// Look-alike: use_cuda_flag_unchecked.cpp.
#include <pl/pl.h>

#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
  const bool force_cpu = argc > 1 && std::strcmp(argv[1], "--cpu") == 0;
  const bool use_cuda = !force_cpu && pl::cuda::is_available();
  pl::nn::Sequential model(pl::nn::Linear(4, 16), pl::nn::ReLU(), pl::nn::Linear(16, 1));
  if (use_cuda)
    model->to(pl::kCUDA);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    auto x = pl::empty({16, 4});
    x.copy_(pl::rand({16, 4}));
    if (use_cuda)
      x = x.cuda();
    auto error = model(x) - x.sum({1}, true);
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
