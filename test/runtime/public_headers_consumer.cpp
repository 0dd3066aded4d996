// Compiled by ctest with -Wall -Wextra -Wpedantic -Werror under g++ and
// clang++: the public headers must not warn in a user's build. It touches
// the templates a user instantiates (braced size lists, tensor literals,
// item<T>, data_ptr<T>, modules and their holders), since a header template
// only warns where it is instantiated.
#include <pl/pl.h>

#include <cstdint>
#include <vector>

float consume() {
  const pl::Device device = pl::cuda::is_available() ? pl::Device("cuda") : pl::Device("sim:0");
  const pl::Tensor a = pl::rand({2, 3}, pl::TensorOptions().device(device));
  const pl::Tensor b = pl::ones({3}, pl::TensorOptions().dtype(pl::kFloat));
  const std::vector<std::int64_t> shape{3, 2};
  const pl::Tensor c = pl::zeros(shape).reshape({2, 3}) + pl::tensor({1.0, 2.0, 3.0});
  const pl::Tensor d = pl::full({2, 3}, 2.0).sum({0, 1}, /*keepdim=*/true);
  const pl::Tensor stacked = pl::cat({c, c * d}, 0);
  pl::nn::Sequential model(pl::nn::Linear(3, 4), pl::nn::ReLU(), pl::nn::Linear(4, 1));
  model->to(device);
  const pl::Tensor out = model(a).cpu();
  const pl::Tensor host = b.to(pl::kDouble);
  return out.sum().item<float>() + static_cast<float>(host.data_ptr<double>()[0]) +
         stacked.mean().item<float>() + static_cast<float>(pl::tensor({1, 2}).argmax().item<int>());
}
