// placement-mixed-device, fixed: the statistics are computed where the data is.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void standardise(const pl::Device &device) {
  const pl::Tensor readings = bugs::load_batch(32, 4).to(device);
  const pl::Tensor column_means = readings.mean({0});
  const pl::Tensor centred = readings - column_means;
  std::cout << "centred readings " << centred.sizes() << " on " << centred.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, standardise); }
