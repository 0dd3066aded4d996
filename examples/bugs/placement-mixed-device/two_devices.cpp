// placement-mixed-device: two accelerators, the activations not moved between them.
//
// A model split over two devices (model parallelism): the encoder on the
// first, the head on the second. The encoder's output is still on the first
// device when the head reads it. sim:0 and sim:1 stand for cuda:0 and cuda:1,
// which mix no better. The devices are written out, as such code usually
// does, so the analyzer knows them (two devices held in variables could be
// equal). The runtime raises pl::DeviceMismatchError in the head (rule and
// both devices; not this line).
// parity: default=report
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
  const pl::Tensor scores = head(hidden); // expect: placement-mixed-device
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main(int argc, char **argv) { return bugs::run_without_arguments(argc, argv, pipeline); }
