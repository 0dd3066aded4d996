// issue 19 class 11 (non-leaf parameters handed over in other ways), pl, correct look-alike.
// CORRECT. As param_vector_from_moved_copies.cpp, but the weights are created
// on the device with requires_grad in their options: leaves.
#include <pl/pl.h>

#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  std::vector<pl::Tensor> params = {pl::randn({8, 1}, pl::device(device).requires_grad(true)),
                                    pl::zeros({1}, pl::device(device).requires_grad(true))};
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
