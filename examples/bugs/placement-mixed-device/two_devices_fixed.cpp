// placement-mixed-device, fixed: the activations are moved to the second device.
// parity: default=clean
#include <iostream>

#include "bug_main.h"

void pipeline() {
  const pl::Device first("sim:0");
  const pl::Device second("sim:1");
  pl::nn::Linear encoder(4, 8);
  encoder->to(first);
  pl::nn::Linear head(8, 2);
  head->to(second);
  const pl::Tensor batch = bugs::load_batch(16, 4).to(first);
  const pl::Tensor hidden = encoder(batch).relu();
  const pl::Tensor scores = head(hidden.to(second));
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, pipeline); }
