// placement-non-leaf-parameter: a weight made to require grad, then moved.
//
// `to()` returns a copy, made by an op that autograd records: the weight the
// loop trains is not a leaf, so backward() never sets its grad() and the
// optimizer never updates it; the loss never falls. The analyzer reports
// the move; under PL_TRANSFER_GUARD=log or disallow the runtime reports the
// optimizer given the copy, naming this line as the move's. On
// the cpu `to` returns the tensor itself, still a leaf, and nothing is
// wrong.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void fit_weights(const pl::Device &device) {
  pl::Tensor weight = (pl::randn({4, 1}) * 0.1).requires_grad_().to(device); // expect: placement-non-leaf-parameter
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
