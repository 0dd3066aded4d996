// placement-mixed-device, fixed: the input is moved to the model's device.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &device) {
  pl::nn::Sequential model(pl::nn::Linear(4, 8), pl::nn::ReLU(), pl::nn::Linear(8, 3));
  model->to(device);
  const pl::Tensor batch = bugs::load_batch(16, 4);
  const pl::Tensor scores = model(batch.to(device));
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
