// placement-transfer-in-loop, fixed: the class weights are made on the device
// once, before the loop.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void weighted_loss(const pl::Device &device) {
  const pl::Tensor class_weights = pl::tensor({1.0, 2.0, 0.5}, device);
  pl::nn::Linear model(8, 3);
  model->to(device);
  pl::Tensor total = pl::zeros({}, device);
  for (int step = 0; step < 20; ++step) {
    const pl::Tensor batch = bugs::load_batch(4, 8).to(device);
    total += (model(batch) * class_weights).sum();
  }
  std::cout << "weighted total " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, weighted_loss); }
