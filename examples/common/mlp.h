// The model that examples/training trains and examples/inference runs: two
// Linear layers with a ReLU between them.
#pragma once

#include <cstdint>

#include <pl/pl.h>

namespace examples {

struct MlpImpl : pl::nn::Module {
  MlpImpl(std::int64_t inputs, std::int64_t hidden, std::int64_t outputs)
      : pl::nn::Module("Mlp"), fc1(register_module("fc1", pl::nn::Linear(inputs, hidden))),
        fc2(register_module("fc2", pl::nn::Linear(hidden, outputs))) {}

  pl::Tensor forward(const pl::Tensor &input) const { return fc2(fc1(input).relu()); }

  pl::nn::Linear fc1;
  pl::nn::Linear fc2;
};
PL_MODULE(Mlp);

} // namespace examples
