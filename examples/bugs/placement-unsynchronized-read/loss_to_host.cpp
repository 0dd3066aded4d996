// placement-unsynchronized-read: a non_blocking download read before anything
// waits for it.
//
// The loss is copied to the host with non_blocking=true, which returns at
// once with a pinned host tensor whose bytes arrive when the device gets to
// the copy; item() reads it before any synchronisation. The sim device is
// set to hold its work until a synchronisation (the chaos switch), so the
// value read is never the loss, as on a busy GPU. Under PL_TRANSFER_GUARD=log
// or disallow the runtime reports the read, naming this line and the copy's,
// by happens-before: the same report whether or not the copy had finished.
// On the cpu `to` returns the tensor itself and nothing is reported.
// parity: sim:0=report cpu=clean
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
  std::cout << "loss " << on_host.item<float>() << "\n"; // expect: placement-unsynchronized-read
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, report_loss); }
