// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// switch statements (cases, fallthrough, default) and early returns.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

enum class Backend { Host, Gpu, SecondGpu };

// Every enumerator is handled: the implicit default edge is unreachable, so
// no path keeps the tensor on the cpu.
void switchEveryCaseMoves(Backend backend) {
  pl::Tensor x = pl::ones({2});
  switch (backend) {
  case Backend::Host:
    x = x.cuda();
    break;
  case Backend::Gpu:
  case Backend::SecondGpu:
    x = x.to(pl::kCUDA);
    break;
  }
  consume(x + pl::ones({2}, pl::kCUDA));
}

void switchWithDefault(Backend backend) {
  pl::Tensor x = pl::ones({2});
  switch (backend) {
  case Backend::Host:
    x = x.cuda();
    break;
  default:
    x = x.to(pl::kCUDA);
    break;
  }
  consume(x + pl::ones({2}, pl::kCUDA));
}

void switchDisagreeing(Backend backend) {
  pl::Tensor x;
  switch (backend) {
  case Backend::Host:
    x = pl::ones({2});
    break;
  case Backend::Gpu:
  case Backend::SecondGpu:
    x = pl::ones({2}, pl::Device("cuda:0"));
    break;
  }
  pl::Tensor first = pl::ones({2}, pl::Device("cuda:0"));
  consume(first + x);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'x' may be on cpu but 'first' is on cuda:0 in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-10]]:9: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'first' was created on cuda:0 here
}

void fallthroughMovesTwice(Backend backend) {
  pl::Tensor x = pl::ones({2});
  switch (backend) {
  case Backend::Host:
    x = x.to(pl::Device("cuda:1"));
    [[fallthrough]];
  case Backend::Gpu:
    x = x.to(pl::Device("cuda:0"));
    break;
  default:
    return;
  }
  consume(x + pl::ones({2}, pl::Device("cuda:0")));
}

pl::Tensor earlyReturnLeavesOnlyTheMovedPath(bool useCuda) {
  pl::Tensor x = pl::ones({2});
  if (!useCuda)
    return x;
  x = x.cuda();
  return x + pl::ones({2}, pl::kCUDA);
}

pl::Tensor earlyReturnInALoop(int n) {
  pl::Tensor x = pl::ones({2});
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      return x;
    x = x.cuda();
  }
  return x * pl::ones({2});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x' may be on cuda but 'pl::ones({2})' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'pl::ones({2})' was created on cpu here
}
