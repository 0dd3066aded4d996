// placement-unguarded-cuda, fixed: CUDA when it is there, else the device
// given on the command line (sim:0 by default).
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &fallback) {
  const pl::Device device = pl::cuda::is_available() ? pl::Device(pl::kCUDA) : fallback;
  const pl::Tensor batch = bugs::load_batch(16, 4).to(device);
  pl::nn::Linear model(4, 3);
  model->to(device);
  const pl::Tensor scores = model(batch);
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
