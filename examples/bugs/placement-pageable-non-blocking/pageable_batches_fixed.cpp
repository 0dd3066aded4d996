// placement-pageable-non-blocking, fixed: each batch is pinned before its
// non_blocking upload, so the upload is one asynchronous copy that returns at
// once (the pinned block is kept from reuse until the copy has run).
// parity: sim:0=clean cpu=clean
#include <iostream>

#include "bug_main.h"

void train(const pl::Device &device) {
  pl::sim::set_delay(pl::sim::Delay::late(std::chrono::microseconds(100)));
  pl::nn::Linear model(32, 4);
  model->to(device);
  pl::Tensor total = pl::zeros({}, pl::device(device));
  for (int step = 0; step < 3; ++step) {
    const pl::Tensor batch = (bugs::load_batch(64, 32) * 2.0f - 1.0f).pin_memory();
    const pl::Tensor x = batch.to(device, batch.dtype(), /*non_blocking=*/true);
    total = total + model(x).sum();
  }
  std::cout << "total " << total.item<float>() << "\n";
}

int main(int argc, char **argv) { return bugs::run_on_device(argc, argv, train); }
