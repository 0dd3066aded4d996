// issue 19 class 9 (module internals), pl, correct look-alike.
// CORRECT. As module_internals_host_tables.cpp, but the offsets are a buffer
// and the projection a submodule, both registered in the constructor, so
// `block->to(device)` moves them.
#include <pl/pl.h>

#include <iostream>

struct GatedBlockImpl : pl::nn::Module {
  explicit GatedBlockImpl(std::int64_t features)
      : pl::nn::Module("GatedBlock"), gate(register_module("gate", pl::nn::Linear(features, features))),
        projection(register_module("projection", pl::nn::Linear(features, features))) {
    offsets = register_buffer("offsets", pl::arange(features).to(pl::kFloat).view({1, features}) * 0.01);
  }

  pl::Tensor forward(const pl::Tensor &x) const {
    auto skip = projection(x);
    auto gated = x * (gate(x) + offsets).relu();
    return gated + skip;
  }
  pl::nn::Linear gate, projection;
  pl::Tensor offsets;
};
PL_MODULE(GatedBlock);

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  GatedBlock block(16);
  block->to(device);
  pl::NoGradGuard no_grad;
  auto out = block(pl::randn({4, 16}, pl::device(device)));
  std::cout << out.sum().item<float>() << "\n";
  return 0;
}
