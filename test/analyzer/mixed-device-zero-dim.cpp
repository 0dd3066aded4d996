// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// PyTorch's scalar promotion: a 0-dim cpu tensor may be an input of an op on
// another device (at most one such input, never the output or the self of
// an in-place op). Reductions, scalar_tensor and tensor(value) are 0-dim;
// factories with sizes are not.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void zeroDimCpuInputIsFine() {
  pl::Tensor g = pl::ones({2, 2}, pl::kCUDA);
  pl::Tensor total = pl::ones({8}).sum();
  pl::Tensor average = pl::ones({8}).mean();
  pl::Tensor scale = pl::scalar_tensor(2.0);
  pl::Tensor shift = pl::tensor(0.5);
  consume(g * total);
  consume(average + g);
  consume(g.mul(scale));
  consume(g - shift);
  g += scale;
  g.add_(total);
}

void zeroDimCpuAsInPlaceSelf() {
  pl::Tensor g = pl::ones({2, 2}, pl::kCUDA);
  pl::Tensor total = pl::ones({8}).sum();
  total += g;
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'total' is on cpu but 'g' is on cuda in call to 'operator+=' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'total' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'g' was created on cuda here
  total.add_(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'total' is on cpu but 'g' is on cuda in call to 'add_' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:36: note: 'total' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-9]]:18: note: 'g' was created on cuda here
}

// Only cpu 0-dim tensors are promoted: a 0-dim cuda tensor is a real operand.
void zeroDimCudaAgainstCpu() {
  pl::Tensor c = pl::ones({2, 2});
  pl::Tensor gtotal = pl::ones({8}, pl::kCUDA).sum();
  consume(c + gtotal);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'c' is on cpu but 'gtotal' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:48: note: 'gtotal' was assigned a tensor on cuda here
}

// A sized tensor with one element is not 0-dim.
void oneElementIsNotZeroDim() {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor one = pl::ones({1});
  consume(g * one);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'g' is on cuda but 'one' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: 'one' was created on cpu here
}

// The result takes the non-cpu device (TensorIterator's rule).
void resultOfPromotionIsOnTheDevice() {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor scaled = pl::scalar_tensor(3.0) * g;
  pl::Tensor c = pl::ones({2});
  consume(scaled + c);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'scaled' is on cuda but 'c' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: 'scaled' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
}

// A 0-dim cpu tensor with a cpu tensor: same device anyway.
void zeroDimWithCpu() {
  pl::Tensor c = pl::ones({2});
  pl::Tensor total = c.sum();
  consume(c / total);
  total += c.mean();
}

// equal and stack admit no cpu scalar (ops.def's SameDeviceStrict: PyTorch's
// CUDA equal compares the devices first, its cat checks every input's).
void zeroDimCpuInEqual() {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor shift = pl::tensor(0.5);
  bool same = g.equal(shift);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'g' is on cuda but 'shift' is on cpu in call to 'equal' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'shift' was created on cpu here
  consume(pl::full({1}, same ? 1.0 : 0.0));
}

void zeroDimCpuStacked() {
  pl::Tensor gtotal = pl::ones({8}, pl::kCUDA).sum();
  pl::Tensor shift = pl::tensor(0.5);
  consume(pl::stack({gtotal, shift}));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'gtotal' is on cuda but 'shift' is on cpu in call to 'stack' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:48: note: 'gtotal' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'shift' was created on cpu here
}

// allclose computes as TensorIterator ops do: a cpu scalar may join.
void zeroDimCpuInAllclose() {
  pl::Tensor gtotal = pl::ones({8}, pl::kCUDA).sum();
  bool close = gtotal.allclose(pl::tensor(8.0));
  consume(pl::full({1}, close ? 1.0 : 0.0));
}
