// placement-discarded-transfer, fixed: the helper returns the moved tensor.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

pl::Tensor moved_to(const pl::Tensor &tensor, const pl::Device &device) {
  return tensor.to(device);
}

void score(const pl::Device &device) {
  pl::nn::Linear model(4, 1);
  model->to(device);
  const pl::Tensor predictions = model(bugs::load_batch(16, 4).to(device));
  const pl::Tensor targets = moved_to(bugs::load_batch(16, 1), device);
  const pl::Tensor error = predictions - targets;
  std::cout << "squared error " << (error * error).mean().item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, score); }
