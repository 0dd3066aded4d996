// placement-non-leaf-parameter, fixed: the weight is made on its device and
// then asked for gradients, so it is a leaf there; backward() sets its
// grad() and the optimizer updates it.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void fit_weights(const pl::Device &device) {
  pl::Tensor weight = (pl::randn({4, 1}, pl::device(device)) * 0.1).requires_grad_();
  pl::optim::SGD optimizer({weight}, 0.1);
  const pl::Tensor inputs = bugs::load_batch(64, 4).to(device);
  const pl::Tensor targets = inputs.sum({1}, true);
  pl::Tensor loss;
  for (int step = 0; step < 50; ++step) {
    optimizer.zero_grad();
    const pl::Tensor error = inputs.matmul(weight) - targets;
    loss = (error * error).mean();
    loss.backward();
    optimizer.step();
  }
  std::cout << "loss after 50 steps " << loss.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, fit_weights); }
