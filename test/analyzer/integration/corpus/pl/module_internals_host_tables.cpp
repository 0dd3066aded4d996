// issue 19 class 9 (module internals), pl: a table built with host factories in a method, and a module made in forward.
// BUG (mixed-device, twice). The gating module builds its per-feature gate
// offsets in a member function with `pl::arange` (cpu) and uses them in
// forward; a projection is constructed inside forward (`pl::nn::Linear` is
// made on the cpu, and Module::to never saw it) and applied to the input on
// the module's device. Each fails on its own (neither uses the other's
// result); their sum, after both, reports nothing.
// Look-alike: module_internals_registered.cpp.
#include <pl/pl.h>

#include <iostream>

struct GatedBlockImpl : pl::nn::Module {
  explicit GatedBlockImpl(std::int64_t features)
      : pl::nn::Module("GatedBlock"), gate(register_module("gate", pl::nn::Linear(features, features))),
        features_(features) {}

  pl::Tensor offsets() const { return pl::arange(features_).to(pl::kFloat).view({1, features_}) * 0.01; }

  pl::Tensor forward(const pl::Tensor &x) const {
    pl::nn::Linear projection(features_, features_);
    auto skip = projection(x); // expect: placement-mixed-device
    auto gated = x * (gate(x) + offsets()).relu(); // expect: placement-mixed-device
    return gated + skip;
  }
  pl::nn::Linear gate;
  std::int64_t features_;
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
