// placement-discarded-transfer, fixed: the moved tensor is kept.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &device) {
  pl::nn::Linear model(4, 3);
  model->to(device);
  pl::Tensor batch = bugs::load_batch(16, 4);
  batch = batch.to(device);
  const pl::Tensor scores = model(batch);
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
