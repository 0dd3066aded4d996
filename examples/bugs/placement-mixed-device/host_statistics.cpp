// placement-mixed-device: a tensor on the cpu meets a tensor on the device.
//
// The column means are computed on the host, where the data was loaded; the
// data then moves to the device and the means stay behind. They are a
// [4] tensor, not a 0-dim one, so they cannot join the device op as a
// scalar. The runtime raises pl::DeviceMismatchError in the subtraction
// (rule and both devices; not this line). On the cpu it runs clean.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void standardise(const pl::Device &device) {
  const pl::Tensor host_readings = bugs::load_batch(32, 4);
  const pl::Tensor column_means = host_readings.mean({0});
  const pl::Tensor readings = host_readings.to(device);
  const pl::Tensor centred = readings - column_means; // expect: placement-mixed-device
  std::cout << "centred readings " << centred.sizes() << " on " << centred.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, standardise); }
