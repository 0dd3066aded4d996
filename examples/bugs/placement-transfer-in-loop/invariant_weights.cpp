// placement-transfer-in-loop: a tensor that never changes, moved on every iteration.
//
// The class weights are the same for every batch, yet they are copied to the
// device again each time. Under PL_TRANSFER_GUARD=log or disallow the runtime
// sees the same unchanged data copied to the same device a second time and
// reports this line. On the cpu `to` returns the tensor itself (no copy) and
// nothing is reported.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void weighted_loss(const pl::Device &device) {
  const pl::Tensor class_weights = pl::tensor({1.0, 2.0, 0.5}) / 3.5; // normalised on the host
  pl::nn::Linear model(8, 3);
  model->to(device);
  pl::Tensor total = pl::zeros({}, device);
  for (int step = 0; step < 20; ++step) {
    const pl::Tensor batch = bugs::load_batch(4, 8).to(device);
    const pl::Tensor weighted = model(batch) * class_weights.to(device); // expect: placement-transfer-in-loop
    total += weighted.sum();
  }
  std::cout << "weighted total " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, weighted_loss); }
