// placement-unguarded-cuda: `model->to(pl::kCUDA)` with no availability check.
//
// Elsewhere than on a GPU machine the runtime raises pl::DeviceError at the
// move, naming the rule and this line (Module::to takes the call site from
// std::source_location). The analyzer reports the request: nothing on the
// path checks pl::cuda::is_available().
// parity: default=report-without-cuda
#include <iostream>

#include "bug_main.h"

void classify() {
  pl::nn::Linear model(4, 3);
  model->to(pl::kCUDA); // expect: placement-unguarded-cuda
  const pl::Tensor batch = bugs::load_batch(16, 4).to(model->weight.device());
  const pl::Tensor scores = model(batch);
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, classify); }
