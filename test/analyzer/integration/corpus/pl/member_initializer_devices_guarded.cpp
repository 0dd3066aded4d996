// issue 19 class 16 (CUDA devices in member initializers), pl.
// CORRECT. A two-GPU pipeline holds `const pl::Device first_{pl::kCUDA, 0}`
// and `second_{pl::kCUDA, 1}` as member initializers; `main` constructs it
// only when `pl::cuda::device_count() >= 2`, so every request through them
// is guarded, and the members themselves place nothing.
#include <pl/pl.h>

#include <iostream>

struct PipelineImpl : pl::nn::Module {
  PipelineImpl()
      : pl::nn::Module("Pipeline"), front(register_module("front", pl::nn::Linear(32, 64))),
        back(register_module("back", pl::nn::Linear(64, 8))) {
    front->to(first_);
    back->to(second_);
  }
  pl::Tensor forward(const pl::Tensor &x) const { return back(front(x.to(first_)).relu().to(second_)); }
  const pl::Device first_{pl::kCUDA, 0};
  const pl::Device second_{pl::kCUDA, 1};
  pl::nn::Linear front, back;
};
PL_MODULE(Pipeline);

int main() {
  if (pl::cuda::device_count() < 2) {
    std::cout << "needs two GPUs; skipped\n";
    return 0;
  }
  Pipeline model;
  pl::NoGradGuard no_grad;
  auto out = model(pl::randn({8, 32}));
  std::cout << out.sum().item<float>() << "\n";
  return 0;
}
