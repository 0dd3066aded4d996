// issue 19 class 11 (non-leaf parameters handed over in other ways), pl: a vector built from the moved copies.
// BUG (non-leaf-parameter, at the move). A hand-written linear model makes
// its weights with requires_grad on the host, then builds the optimizer's
// vector from `w.to(device)`: copies that are not leaves.
// Look-alike: param_vector_created_on_device.cpp.
#include <pl/pl.h>

#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  std::vector<pl::Tensor> host_params = {pl::randn({8, 1}, pl::requires_grad()),
                                         pl::zeros({1}, pl::requires_grad())};
  std::vector<pl::Tensor> params;
  for (const auto &p : host_params)
    params.push_back(p.to(device)); // expect: placement-non-leaf-parameter
  pl::optim::SGD optimizer(params, pl::optim::SGDOptions(0.1));
  for (int step = 0; step < 100; ++step) {
    auto x = pl::randn({32, 8}, pl::device(device));
    auto y = x.sum({1}, true);
    auto error = x.matmul(params[0]) + params[1] - y;
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
