// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Device values: constants, string literals ("cuda:1"), Device variables
// holding one known value, and symbolic devices ("the device in 'dev'").
#include <pl/pl.h>

void consume(const pl::Tensor &t);

// b is created on the cpu: moving it to the cpu is no transfer, so its device
// comes from the factory.
void deviceVariableWithAKnownValue() {
  pl::Device gpu(pl::kCUDA, 1);
  pl::Device host = pl::kCPU;
  pl::Tensor a = pl::ones({2}, gpu);
  pl::Tensor b = pl::ones({2}).to(host);
  consume(a + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cuda:1 but 'b' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cpu here
}

void stringLiterals() {
  pl::Tensor a = pl::ones({2}).to("cuda:1");
  pl::Tensor b = pl::ones({2}, pl::Device("cuda:0"));
  consume(a * b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cuda:1 but 'b' is on cuda:0 in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 'a' was moved to cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda:0 here
  pl::Tensor s = pl::ones({2}, pl::Device("sim:0"));
  pl::Tensor t = pl::ones({2}).to(pl::Device("sim:1"));
  consume(s - t);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 's' is on sim:0 but 't' is on sim:1 in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 's' was created on sim:0 here
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 't' was moved to sim:1 here
}

void stringAndConstantAgree() {
  pl::Tensor a = pl::ones({2}).to("cuda");
  pl::Tensor b = pl::ones({2}, pl::kCUDA);
  pl::Tensor c = pl::ones({2}, pl::Device("cuda:0"));
  pl::Tensor d = pl::ones({2}, pl::Device("cpu"));
  pl::Tensor e = pl::ones({2});
  consume(a + b);
  consume(a + c);
  consume(d + e);
}

// A string the device grammar rejects throws at run time; the analyzer
// does not guess a device for it.
void invalidStringIsUnknown() {
  pl::Tensor a = pl::ones({2}).to("gpu");
  pl::Tensor b = pl::ones({2}).to("cuda:01");
  pl::Tensor c = pl::ones({2});
  consume(a + c);
  consume(b + c);
}

void symbolicDeviceFromAvailability() {
  pl::Device dev = pl::cuda::is_available() ? pl::kCUDA : pl::kCPU;
  pl::Tensor x = pl::ones({2}, dev);
  pl::Tensor host = pl::ones({2});
  consume(x + host);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' may be on the device in 'dev' but 'host' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'x' was created on the device in 'dev' here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'host' was created on cpu here
  consume(x + host.to(dev));
  consume(pl::matmul(x, pl::zeros({2}, pl::device(dev))));
}

void symbolicDeviceParameter(pl::Device dev) {
  pl::Tensor x = pl::ones({2}).to(dev);
  pl::Tensor y = pl::ones({2}, pl::kCUDA);
  consume(x + y);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x' may be on the device in 'dev' but 'y' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: 'x' was moved to the device in 'dev' here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'y' was created on cuda here
  consume(x + y.to(dev));
}

// Reassigning the Device variable gives it a known value again.
void deviceVariableReassigned() {
  pl::Device dev = pl::cuda::is_available() ? pl::kCUDA : pl::kCPU;
  dev = pl::kCPU;
  pl::Tensor x = pl::ones({2}, dev);
  consume(x + pl::ones({2}));
}

// A copy of a Device variable holds the same device.
void copiedDeviceVariable(pl::Device dev) {
  pl::Device same = dev;
  pl::Tensor x = pl::ones({2}, same);
  pl::Tensor y = pl::ones({2}).to(dev);
  consume(x * y);
}

void deviceOfAnotherTensor(const pl::Tensor &input) {
  pl::Tensor y = pl::ones({2}).to(input.device());
  consume(input + y);
}
