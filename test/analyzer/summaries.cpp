// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Function summaries: for a function defined in the translation unit, the
// device of its result follows from the devices of its arguments.
#include <pl/pl.h>

void consume(const pl::Tensor &t);
pl::Tensor declaredOnly(const pl::Tensor &t);
pl::Tensor definedLater(const pl::Tensor &t);

pl::Tensor toGpu(const pl::Tensor &t) { return t.to(pl::kCUDA); }

pl::Tensor identity(pl::Tensor t) { return t; }

pl::Tensor moveTo(const pl::Tensor &t, pl::Device device) { return t.to(device); }

pl::Tensor makeWeights() { return pl::randn({4, 4}); }

pl::Tensor scaled(const pl::Tensor &t) { return t * 2.0 + t; }

void helperMovesToCuda() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = toGpu(a);
  consume(g + a);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'g' is on cuda but 'a' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'g' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'a' was created on cpu here
}

void resultFollowsTheArgument() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = identity(a);
  pl::Tensor h = scaled(g);
  consume(b * h);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'b' is on cpu but 'h' is on cuda in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'h' was assigned a tensor on cuda here
  consume(identity(g) + h);
}

void resultFollowsTheDeviceArgument() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor moved = moveTo(a, pl::Device("cuda:1"));
  pl::Tensor other = pl::ones({2}, pl::Device("cuda:0"));
  consume(moved - other);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'moved' is on cuda:1 but 'other' is on cuda:0 in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'moved' was assigned a tensor on cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'other' was created on cuda:0 here
}

void factoryHelper() {
  pl::Tensor w = makeWeights();
  pl::Tensor x = pl::ones({4, 4}, pl::kCUDA);
  consume(pl::matmul(x, w));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cuda but 'w' is on cpu in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'x' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'w' was assigned a tensor on cpu here
  consume(pl::matmul(w, makeWeights()));
}

void helperDefinedLater() {
  pl::Tensor h = definedLater(pl::ones({2}));
  consume(h + pl::ones({2}, pl::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h' is on cpu but 'pl::ones({2}, pl::kCUDA)' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'h' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'pl::ones({2}, pl::kCUDA)' was created on cuda here
}

// No body in this translation unit: the result's device is unknown.
void unknownHelper() {
  pl::Tensor a = pl::ones({2});
  consume(declaredOnly(a) + pl::ones({2}, pl::kCUDA));
}

pl::Tensor pickDevice(const pl::Tensor &t, bool useCuda) {
  if (useCuda)
    return t.cuda();
  return t;
}

// The helper's result differs by path: unknown or "may be", never definite.
void helperWithBranches(bool flag) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor p = pickDevice(a, flag);
  consume(p + pl::ones({2}, pl::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'p' may be on cpu but 'pl::ones({2}, pl::kCUDA)' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'p' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'pl::ones({2}, pl::kCUDA)' was created on cuda here
}

pl::Tensor recursive(const pl::Tensor &t, int depth) {
  if (depth == 0)
    return t;
  return recursive(t.cuda(), depth - 1);
}

void recursionIsNotAProblem() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  consume(recursive(a, 3) + a);
}

pl::Tensor definedLater(const pl::Tensor &t) { return t.relu(); }
