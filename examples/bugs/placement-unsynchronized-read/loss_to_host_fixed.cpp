// placement-unsynchronized-read, fixed: the device is synchronised between
// the non_blocking download and the host's read, so the read sees the loss
// even with the sim device holding its work until a synchronisation.
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void report_loss(const pl::Device &device) {
  pl::sim::set_delay(pl::sim::Delay::until_synchronized());
  pl::nn::Linear model(16, 1);
  model->to(device);
  const pl::Tensor inputs = pl::rand({32, 16}, pl::device(device));
  const pl::Tensor targets = pl::rand({32, 1}, pl::device(device));
  const pl::Tensor error = model(inputs) - targets;
  const pl::Tensor loss = (error * error).mean();
  const pl::Tensor on_host = loss.to(pl::kCPU, loss.dtype(), /*non_blocking=*/true);
  pl::synchronize(device);
  std::cout << "loss " << on_host.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, report_loss); }
