// placement-unguarded-cuda: `.cuda()` with no pl::cuda::is_available() check.
//
// Written on a machine with a GPU, the program assumes one. Elsewhere the
// runtime raises pl::DeviceError at the request, naming the rule and this
// line (the call site comes from std::source_location), whatever other
// device the machine has. The analyzer reports the request: nothing on the
// path checks pl::cuda::is_available().
// parity: default=report-without-cuda
#include <iostream>

#include "bug_main.h"

void classify() {
  const pl::Tensor batch = bugs::load_batch(16, 4).cuda(); // expect: placement-unguarded-cuda
  pl::nn::Linear model(4, 3);
  model->to(batch.device());
  const pl::Tensor scores = model(batch);
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, classify); }
