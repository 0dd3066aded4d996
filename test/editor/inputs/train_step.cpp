// A pl training step with two placement bugs, for the editor tests: the
// batch's move is discarded, so the batch stays on the cpu and meets the
// model on `device`. Everything the analysis needs is in this file (no
// helper from a header: docs/editors.md, "Limits").
#include <iostream>

#include <pl/pl.h>

void train_step(const pl::Device &device) {
  pl::nn::Linear model(4, 3);
  model->to(device);
  pl::Tensor batch = pl::randn({16, 4});
  batch = batch / batch.max(); // scaled on the host, as loaded data often is
  batch.to(device); // expect: placement-discarded-transfer
  const pl::Tensor scores = model(batch); // expect: placement-mixed-device
  std::cout << "scores " << scores.sizes() << " on " << scores.device() << "\n";
}

int main() {
  train_step(pl::Device("sim:0"));
  return 0;
}
