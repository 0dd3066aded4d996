// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Flow sensitivity across loops: the analysis iterates to a fixed point, so
// a device set on a later iteration (or on none) reaches the code after and
// inside the loop.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

// Zero iterations leave the tensor on the cpu.
void movedInsideTheLoop(int n) {
  pl::Tensor x = pl::ones({2});
  for (int i = 0; i < n; ++i)
    x = x.to(pl::kCUDA);
  pl::Tensor c = pl::ones({2});
  consume(x + c);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' may be on cuda but 'c' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
}

// The second iteration sees what the first one did.
void deviceCarriedAcrossIterations(int n) {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor prev = pl::ones({2}, pl::kCUDA);
  pl::Tensor cur = pl::ones({2}, pl::kCUDA);
  for (int i = 0; i < n; ++i) {
    consume(prev * g);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'prev' may be on cpu but 'g' is on cuda in call to 'operator*' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+2]]:10: note: 'prev' was assigned a tensor on cpu here
    // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'g' was created on cuda here
    prev = cur;
    cur = pl::ones({2});
  }
}

void loopKeepsTheDevice(int n) {
  pl::Tensor acc = pl::zeros({2}, pl::kCUDA);
  for (int i = 0; i < n; ++i) {
    pl::Tensor step = pl::ones({2}, pl::kCUDA);
    acc = acc + step;
    acc += step * 0.5;
  }
  consume(acc - pl::ones({2}, pl::kCUDA));
}

void whileWithBreak(bool (*more)()) {
  pl::Tensor x = pl::ones({2});
  while (more()) {
    x = x.cuda();
    break;
  }
  consume(x * pl::ones({2}, pl::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' may be on cpu but 'pl::ones({2}, pl::kCUDA)' is on cuda in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'pl::ones({2}, pl::kCUDA)' was created on cuda here
}

void moveBeforeTheLoop(int n) {
  pl::Tensor x = pl::ones({2}).cuda();
  for (int i = 0; i < n; ++i)
    consume(x + pl::ones({2}, pl::kCUDA));
}

void rangeForOverCudaTensors(int n) {
  pl::Tensor parts[3] = {pl::ones({2}, pl::kCUDA), pl::ones({2}, pl::kCUDA), pl::ones({2}, pl::kCUDA)};
  pl::Tensor sum = pl::zeros({2}, pl::kCUDA);
  for (const pl::Tensor &p : parts)
    sum += p;
  consume(sum);
}
