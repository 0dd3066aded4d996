// issue 19 class 17 (one bug, one report), pl: a factory's tensor whose move is discarded.
// BUG (discarded-transfer; the op that uses it then mixes devices). The bias
// is made with `pl::zeros` and "moved" with `bias.to(device);`, result thrown
// away: one bug, a discarded transfer, not also create-then-move. The
// addition that fails because of it is reported as mixed-device.
#include <pl/pl.h>

#include <iostream>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  auto weight = pl::randn({16, 4}, pl::device(device));
  auto bias = pl::zeros({1, 4});
  bias.to(device); // expect: placement-discarded-transfer
  auto x = pl::randn({8, 16}, pl::device(device));
  auto y = x.matmul(weight) + bias; // expect: placement-mixed-device
  std::cout << y.sum().item<float>() << "\n";
  return 0;
}
