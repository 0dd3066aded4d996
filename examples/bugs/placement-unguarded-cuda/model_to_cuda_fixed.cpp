// placement-unguarded-cuda, fixed: the model goes to CUDA only when CUDA is
// there, else to the device given on the command line (sim:0 by default).
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void classify(const pl::Device &fallback) {
  pl::nn::Linear model(4, 3);
  model->to(pl::cuda::is_available() ? pl::Device(pl::kCUDA) : fallback);
  const pl::Tensor batch = bugs::load_batch(16, 4).to(model->weight.device());
  const pl::Tensor scores = model(batch);
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, classify); }
