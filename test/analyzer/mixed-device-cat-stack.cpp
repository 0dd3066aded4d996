// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// cat and stack: every element of the list must be on one device. The
// warning names the first element and the first element that conflicts.
#include <pl/pl.h>

#include <vector>

void consume(const pl::Tensor &t);

void catCpuAndCuda() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  consume(pl::cat({a, b}));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'a' is on cpu but 'b' is on cuda in call to 'cat' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
}

void stackConflictAfterAgreeingElements() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = pl::zeros({2}).cuda();
  pl::Tensor c = pl::ones({2});
  pl::Tensor d = pl::ones({2});
  consume(pl::stack({a, b, c, d}, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'a' is on cuda but 'c' is on cpu in call to 'stack' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-6]]:18: note: 'a' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'c' was created on cpu here
}

void catDifferentCudaIndices() {
  pl::Tensor a = pl::ones({2}, pl::Device("cuda:1"));
  pl::Tensor b = pl::ones({2}).to(pl::Device("cuda:0"));
  consume(pl::cat({a, b}, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'a' is on cuda:1 but 'b' is on cuda:0 in call to 'cat' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 'b' was moved to cuda:0 here
}

void listsOnOneDevice() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = pl::ones({2}).cuda();
  pl::Tensor c = pl::ones({2});
  pl::Tensor d = pl::zeros({2});
  consume(pl::cat({a, b}));
  consume(pl::stack({c, d}));
  consume(pl::cat({a, c.cuda(), b}));
}

void listWithUnknownElement(const pl::Tensor &unknown) {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor c = pl::ones({2}, pl::kCUDA);
  consume(pl::cat({unknown, a, c}));
  consume(pl::stack({a, unknown}));
}

void vectorOfTensorsOnOneDevice(int n) {
  std::vector<pl::Tensor> parts;
  for (int i = 0; i < n; ++i)
    parts.push_back(pl::ones({2}, pl::kCUDA));
  consume(pl::cat(parts));
}
