// issue 19 class 8 (0-dim tensors on another accelerator), pl, correct look-alike.
// CORRECT. As zero_dim_other_accelerator.cpp, but the second loss is brought
// to the first device before the sum; a 0-dim cpu tensor (the mean of host
// data) may join the sum as it is.
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
  auto host_penalty = (x * x).mean() * 1e-3;
  auto total = loss0 + loss1.to(first) + host_penalty;
  total.backward();
  std::cout << total.item<float>() << "\n";
  return 0;
}
