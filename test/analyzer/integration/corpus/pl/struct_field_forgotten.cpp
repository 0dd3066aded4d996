// issue 19 class 5 (structs and batch types), pl: fields of a local struct moved one by one, one forgotten.
// BUG (mixed-device). A sample holds features, targets and per-sample
// weights; the weights are not moved and meet the squared error on the
// device.
#include <pl/pl.h>

#include <iostream>

struct Sample {
  pl::Tensor features, targets, weights;
};

Sample load_sample(int index) {
  Sample s{pl::empty({64, 6}), pl::empty({64, 1}), pl::empty({64, 1})};
  s.features.copy_(pl::rand({64, 6}));
  s.targets.copy_(s.features.sum({1}, true));
  s.weights.copy_(pl::rand({64, 1}) + static_cast<double>(index % 2));
  return s;
}

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  pl::nn::Linear model(6, 1);
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.05));
  for (int i = 0; i < 200; ++i) {
    Sample sample = load_sample(i);
    sample.features = sample.features.to(device);
    sample.targets = sample.targets.to(device);
    auto error = model(sample.features) - sample.targets;
    auto loss = (error * error * sample.weights).mean(); // expect: placement-mixed-device
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
