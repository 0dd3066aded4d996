// RUN: %check_placement %s placement-create-then-move %t -compile-fixed -- -- %mock_includes
//
// The same rule on this project's runtime: the fix-it writes pl's options.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void recurrentState(const pl::Device &device) {
  pl::Tensor state = pl::zeros({8, 32}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   pl::Tensor state = pl::zeros({8, 32}, pl::device(device));
  pl::Tensor labels = pl::zeros({8}, pl::kLong).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'zeros' creates a tensor on the host only to move it to the device in 'device'; create it there [placement-create-then-move]
  // CHECK-FIXES:   pl::Tensor labels = pl::zeros({8}, pl::TensorOptions(pl::kLong).device(device));
}
