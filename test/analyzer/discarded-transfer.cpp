// RUN: %check_placement %s placement-discarded-transfer %t -compile-fixed -- -- %mock_includes
//
// Tensor::to/cuda/cpu return the moved tensor; a discarded result means the
// tensor did not move. The fix-it assigns the result back when the receiver
// is a plain non-const variable.
#include <pl/pl.h>

#include <optional>

void consume(const pl::Tensor &t);
pl::Tensor produce();

void discardedTo() {
  pl::Tensor t = pl::ones({2});
  t.to(pl::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'to' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: t = t.to(pl::kCUDA);
  consume(t);
}

void discardedCudaAndCpu() {
  pl::Tensor t = pl::ones({2});
  t.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cuda' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: t = t.cuda();
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  g.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cpu' is discarded; 'g' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: g = g.cpu();
  consume(t + g);
}

void discardedWithMoreArguments(pl::Tensor param, pl::Device dev) {
  param.to(dev, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the result of 'to' is discarded; 'param' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: param = param.to(dev, /*non_blocking=*/true);
  consume(param);
}

void discardedUnderIfWithoutBraces(bool useCuda) {
  pl::Tensor t = pl::ones({2});
  if (useCuda)
    t.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of 'cuda' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: t = t.cuda();
  consume(t);
}

// Not a plain non-const variable: warn, but assigning back would not compile
// or would not be the fix.
void noFixForConstOrTemporary(pl::Device dev) {
  const pl::Tensor c = pl::ones({2});
  c.to(dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'to' is discarded; 'c' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: c.to(dev);
  produce().cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: the result of 'cuda' is discarded; 'produce()' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: produce().cuda();
  consume(c);
}

struct Trainer {
  pl::Tensor weights;
  void moveWeights() {
    weights.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: the result of 'cuda' is discarded; 'weights' is not moved in place [placement-discarded-transfer]
    // CHECK-FIXES: weights.cuda();
  }
};

// Module::to moves the parameters in place: nothing is discarded.
void moduleToIsInPlace(pl::Device dev) {
  pl::nn::Linear lin(4, 2);
  lin->to(dev);
  pl::nn::Linear other(4, 2);
  (*other).to(pl::kCUDA);
}

void resultsThatAreUsed(pl::Device dev) {
  pl::Tensor t = pl::ones({2});
  pl::Tensor u = t.to(dev);
  t = t.cuda();
  consume(t.cpu());
  consume(u.to(pl::kCPU).sum());
  auto same = t.cuda();
  consume(same);
}

pl::Tensor returnedResult(const pl::Tensor &t) { return t.cuda(); }

// An explicit (void) says the discard is intended.
void explicitVoidCast(pl::Tensor t) {
  (void)t.to(pl::kCUDA);
  (void)t.cpu();
  // CHECK-FIXES: (void)t.to(pl::kCUDA);
}

// Ops that are not transfers are not this rule's business.
void otherDiscardedCalls(pl::Tensor t) {
  t.relu();
  t.sum();
  t.contiguous();
}

// A helper that "moves" its by-value argument and reads it no more: the
// caller expected the move, so `tensor = tensor.to(device);` would fix
// nothing. Reported, no fix.
void moveTo(pl::Tensor tensor, const pl::Device &device) {
  tensor.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the result of 'to' is discarded; 'tensor' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: {{^}}  tensor.to(device);{{$}}
}

// A tensor held in an optional, moved through `->`: named by the optional.
void optionalMaskMoved(std::optional<pl::Tensor> &mask, pl::Device dev) {
  if (mask)
    mask->to(dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the result of 'to' is discarded; 'mask' is not moved in place [placement-discarded-transfer]
}
void optionalMaskAssigned(std::optional<pl::Tensor> &mask, pl::Device dev) {
  if (mask)
    *mask = mask->to(dev);
}
