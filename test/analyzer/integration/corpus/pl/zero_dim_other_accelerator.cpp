// issue 19 class 8 (0-dim tensors on another accelerator), pl: a 0-dim tensor on sim:1 meeting one on sim:0.
// BUG (mixed-device). Two replicas train on two devices; the loss of the
// second, a 0-dim tensor on `second`, is added to the first's, a 0-dim tensor
// on `first`. Only a 0-dim *cpu* tensor may join an op on another device.
// Look-alike: zero_dim_other_accelerator_gathered.cpp.
#include <pl/pl.h>

#include <iostream>

int main(int argc, char **argv) {
  const pl::Device first(argc > 2 ? argv[1] : "sim:0");
  const pl::Device second(argc > 2 ? argv[2] : "sim:1");
  pl::nn::Linear replica0(8, 1), replica1(8, 1);
  replica0->to(first);
  replica1->to(second);
  auto x = pl::randn({32, 8});
  auto y = x.sum({1}, true);
  auto e0 = replica0(x.narrow(0, 0, 16).to(first)) - y.narrow(0, 0, 16).to(first);
  auto e1 = replica1(x.narrow(0, 16, 16).to(second)) - y.narrow(0, 16, 16).to(second);
  auto loss0 = (e0 * e0).mean();
  auto loss1 = (e1 * e1).mean();
  auto total = loss0 + loss1; // expect: placement-mixed-device
  total.backward();
  std::cout << total.item<float>() << "\n";
  return 0;
}
