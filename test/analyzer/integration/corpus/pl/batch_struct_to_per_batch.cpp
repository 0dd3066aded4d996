// issue 19 class 5 and class 13 (a batch type's own to()), pl, correct look-alike.
// CORRECT. As batch_struct_to_discarded.cpp, but the moved copy is kept. The
// transfers inside `Batch::to` move a new batch on each call: not an
// unchanged member moved on every call.
#include <pl/pl.h>

#include <iostream>
#include <vector>

struct Batch {
  pl::Tensor inputs;
  pl::Tensor targets;
  Batch to(const pl::Device &device) const { return {inputs.to(device), targets.to(device)}; }
};

std::vector<Batch> make_batches(int count) {
  std::vector<Batch> batches;
  for (int i = 0; i < count; ++i) {
    auto x = pl::empty({32, 10});
    x.copy_(pl::rand({32, 10}));
    batches.push_back({x, x.sum({1}, true)});
  }
  return batches;
}

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Sequential model(pl::nn::Linear(10, 32), pl::nn::ReLU(), pl::nn::Linear(32, 1));
  model->to(device);
  pl::optim::Adam optimizer(model->parameters(), pl::optim::AdamOptions(1e-3));
  for (auto &batch : make_batches(50)) {
    const Batch on_device = batch.to(device);
    auto error = model(on_device.inputs) - on_device.targets;
    auto loss = (error * error).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
