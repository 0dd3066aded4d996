// RUN: %check_placement -check-suffixes=,MAY %s placement-mixed-device %t -- -- %mock_includes
// RUN: %check_placement %s placement-mixed-device %t -- \
// RUN:   -config="{CheckOptions: {placement-mixed-device.ReportMayMismatch: false}}" -- %mock_includes
//
// placement-mixed-device, "may be" mismatches: one operand holds a known
// device, the other a different one on some path. With ReportMayMismatch
// off only definite mismatches (CHECK-MESSAGES) remain.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void movedOnOnePath(bool flag) {
  pl::Tensor a = pl::ones({2});
  if (flag)
    a = a.to(pl::kCUDA);
  pl::Tensor b = pl::ones({2});
  consume(a + b);
  // CHECK-MESSAGES-MAY: :[[@LINE-1]]:13: warning: 'a' may be on cuda but 'b' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES-MAY: :[[@LINE-4]]:11: note: 'a' was moved to cuda here
  // CHECK-MESSAGES-MAY: :[[@LINE-4]]:18: note: 'b' was created on cpu here
}

// The operand with the uncertain device is quoted first, whatever its position.
void uncertainOperandOnTheRight(bool flag) {
  pl::Tensor a = pl::ones({2});
  if (flag)
    a = a.to(pl::kCUDA);
  pl::Tensor b = pl::ones({2});
  consume(b * a);
  // CHECK-MESSAGES-MAY: :[[@LINE-1]]:13: warning: 'a' may be on cuda but 'b' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES-MAY: :[[@LINE-4]]:11: note: 'a' was moved to cuda here
  // CHECK-MESSAGES-MAY: :[[@LINE-4]]:18: note: 'b' was created on cpu here
}

// A symbolic device ("whatever dev holds") may differ from cpu: on a machine
// with a GPU this line throws.
void symbolicDeviceAgainstCpu() {
  pl::Device dev = pl::cuda::is_available() ? pl::kCUDA : pl::kCPU;
  pl::Tensor x = pl::ones({2});
  pl::Tensor cpuTensor = pl::ones({2});
  consume(x.to(dev) + cpuTensor);
  // CHECK-MESSAGES-MAY: :[[@LINE-1]]:21: warning: 'x.to(dev)' may be on the device in 'dev' but 'cpuTensor' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES-MAY: :[[@LINE-2]]:13: note: 'x.to(dev)' was moved to the device in 'dev' here
  // CHECK-MESSAGES-MAY: :[[@LINE-4]]:26: note: 'cpuTensor' was created on cpu here
}

void definiteStaysReported() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
}

// Neither side is known for certain: nothing to compare against.
void bothUncertain(bool flag, bool other) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = pl::ones({2});
  if (flag)
    a = a.cuda();
  if (other)
    b = b.cuda();
  consume(a + b);
}

// Both sides follow the same device variable.
void sameSymbolicDevice() {
  pl::Device dev = pl::cuda::is_available() ? pl::kCUDA : pl::kCPU;
  pl::Tensor x = pl::ones({2}).to(dev);
  pl::Tensor y = pl::ones({2}, dev);
  pl::Tensor z = pl::zeros({2}, pl::device(dev));
  consume(x + y);
  consume(y * z);
  consume(pl::matmul(x.to(dev), z));
}

// Every path moves the tensor: the device is certain again.
void movedOnEveryPath(bool flag) {
  pl::Tensor a = pl::ones({2});
  if (flag)
    a = a.cuda();
  else
    a = a.to(pl::kCUDA);
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g);
}
