// issue 19 class 2 (a conversion between the factory and the move), pl: ones -> to(kBool) / arange -> view -> to(device).
// BUG (create-then-move, twice). A masked regression loss builds an "all
// valid" flag vector with `pl::ones(...).to(pl::kBool)` and column indices
// with `pl::arange(n).view(...)`, and only then moves each: the conversion
// and the view in between change nothing about where they could be made.
#include <pl/pl.h>

#include <iostream>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  const std::int64_t batch = 64, features = 8;
  pl::nn::Linear model(features, 1);
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.05));
  auto valid = pl::ones({batch, 1}).to(pl::kBool).to(device); // expect: placement-create-then-move
  auto column = pl::arange(features).to(pl::kFloat).view({1, features}).to(device); // expect: placement-create-then-move
  for (int step = 0; step < 300; ++step) {
    auto x = pl::rand({batch, features}, pl::device(device));
    auto y = (x * column).sum({1}, true);
    auto error = model(x) - y;
    auto loss = (error * error * valid.to(pl::kFloat)).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
