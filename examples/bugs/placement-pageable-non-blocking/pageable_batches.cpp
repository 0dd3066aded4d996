// placement-pageable-non-blocking: a non_blocking upload from pageable memory.
//
// Each batch comes from the loader and is scaled on the host, into ordinary
// (pageable) memory, then uploaded with non_blocking=true, which promises an overlap that cannot
// happen: the copy is staged synchronously. The program is right, only
// slow. Under PL_TRANSFER_GUARD=log or disallow the runtime reports the
// upload, naming this line. The sim device runs its work late (the chaos
// switch), as a busy GPU would. On the cpu `to` returns the batch itself and
// nothing is reported.
// parity: sim:0=report cpu=clean
#include <iostream>

#include "bug_main.h"

void train(const pl::Device &device) {
  pl::sim::set_delay(pl::sim::Delay::late(std::chrono::microseconds(100)));
  pl::nn::Linear model(32, 4);
  model->to(device);
  pl::Tensor total = pl::zeros({}, pl::device(device));
  for (int step = 0; step < 3; ++step) {
    const pl::Tensor batch = bugs::load_batch(64, 32) * 2.0f - 1.0f; // scaled on the host
    const pl::Tensor x = batch.to(device, batch.dtype(), /*non_blocking=*/true); // expect: placement-pageable-non-blocking
    total = total + model(x).sum();
  }
  std::cout << "total " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, train); }
