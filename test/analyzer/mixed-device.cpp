// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// placement-mixed-device, definite mismatches: every kind of operation, every
// pair of devices, and the combinations that must stay silent.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void binaryOperatorCpuCuda() {
  pl::Tensor a = pl::ones({2, 2});
  pl::Tensor b = pl::ones({2, 2}, pl::kCUDA);
  pl::Tensor c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'a' is on cpu but 'b' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
  consume(c);
}

void binaryOperatorCudaCpu() {
  pl::Tensor a = pl::ones({2, 2}, pl::kCUDA);
  pl::Tensor b = pl::ones({2, 2});
  consume(a * b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cuda but 'b' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cpu here
}

void everyBinaryOperator() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  consume(a - b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'b' is on cuda in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
  consume(a / b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'b' is on cuda in call to 'operator/' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-8]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-8]]:18: note: 'b' was created on cuda here
}

void compoundAssignment() {
  pl::Tensor acc = pl::zeros({2});
  pl::Tensor g = pl::ones({2}).to(pl::kCUDA);
  acc += g;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'acc' is on cpu but 'g' is on cuda in call to 'operator+=' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: 'acc' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 'g' was moved to cuda here
}

void methodOperation() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2}).cuda();
  consume(a.add(b));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'b' is on cuda in call to 'add' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 'b' was moved to cuda here
  consume(b.matmul(a));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'b' is on cuda but 'a' is on cpu in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:32: note: 'b' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-9]]:18: note: 'a' was created on cpu here
}

void inPlaceMethodOperation() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  a.mul_(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'a' is on cpu but 'b' is on cuda in call to 'mul_' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
}

void freeFunctionOperation() {
  pl::Tensor x = pl::randn({4, 3});
  pl::Tensor w = pl::randn({3, 2}, pl::device(pl::kCUDA));
  consume(pl::matmul(x, w));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cpu but 'w' is on cuda in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'w' was created on cuda here
}

void differentCudaIndices() {
  pl::Tensor a = pl::ones({2}, pl::Device("cuda:0"));
  pl::Tensor b = pl::ones({2}, pl::Device(pl::kCUDA, 1));
  consume(a + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cuda:0 but 'b' is on cuda:1 in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cuda:0 here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda:1 here
}

void simulatedDevice() {
  pl::Tensor a = pl::ones({2}, pl::Device(pl::kSim, 0));
  pl::Tensor b = pl::ones({2});
  consume(a + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on sim:0 but 'b' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on sim:0 here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cpu here
}

void transferResultAsOperand() {
  pl::Tensor x = pl::ones({2});
  pl::Tensor y = pl::ones({2});
  consume(x.cuda() + y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'x.cuda()' is on cuda but 'y' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'x.cuda()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'y' was created on cpu here
}

// An operand that is itself an operation result: its text is quoted whole.
void operationResultAsOperand() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  consume(a * 2.0 + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'a * 2.0' is on cpu but 'b' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'a * 2.0' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
}

void sameDeviceIsFine() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = pl::zeros({2}).cuda();
  pl::Tensor c = pl::ones({2}).to(pl::kCUDA);
  consume(a + b);
  consume(a.add(c));
  consume(pl::matmul(b, c));
  pl::Tensor h = pl::ones({2});
  pl::Tensor k = pl::ones({2}, pl::kCPU);
  consume(h * k);
  consume(pl::ones({2}).to(a) + a);
  consume(h.to(pl::kDouble) + k);
}

// The current CUDA device may be cuda:0: not a mismatch.
void currentCudaAndCudaZeroAreNotAMismatch() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = pl::ones({2}, pl::Device("cuda:0"));
  pl::Tensor c = pl::ones({2}).cuda();
  consume(a + b);
  consume(b + c);
}

// copy_ across devices is an explicit copy.
void copyAcrossDevicesIsFine() {
  pl::Tensor host = pl::empty({2});
  pl::Tensor dev = pl::ones({2}, pl::kCUDA);
  host.copy_(dev);
  dev.copy_(host);
}

void cppScalarsNeverMismatch() {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(g * 2.0);
  consume(3 + g);
  consume(g / 2.0f);
  consume(g.add(2.0));
  g += 1.0;
}

// A parameter's device is unknown: unknown never reports.
void unknownDeviceIsSilent(pl::Tensor param) {
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  pl::Tensor c = pl::ones({2});
  consume(param + g);
  consume(c + param);
  consume(pl::matmul(param, g));
}

// Device of an op result: the shared device of its operands.
void resultOfOperationKeepsDevice() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  pl::Tensor sum = a + b;
  pl::Tensor c = pl::ones({2});
  consume(sum - c);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'sum' is on cuda but 'c' is on cpu in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'sum' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
}

// One warning however many times the template is instantiated.
template <class T> pl::Tensor scaledMix(T factor) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  return (a + g) * factor;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
}

void instantiatedTwice() {
  consume(scaledMix(2.0));
  consume(scaledMix(3));
}

// A lambda body is its own function: captured tensors have unknown devices.
void lambdaCaptures() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  a = a.cuda();
  auto combine = [&] { return a + g; };
  consume(combine());
}
