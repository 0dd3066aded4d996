// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Copies, moves and reassignments carry devices; references, pointers and
// calls that may modify a tensor make its device unknown (never a report).
#include <pl/pl.h>

#include <utility>

void consume(const pl::Tensor &t);
void mutate(pl::Tensor &t);
pl::Tensor produce();

void copyKeepsTheDevice() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor b = a;
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(b + g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'b' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'b' was assigned a tensor on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
}

void moveKeepsTheDevice() {
  pl::Tensor a = pl::ones({2}, pl::kCUDA);
  pl::Tensor b = std::move(a);
  pl::Tensor c = pl::ones({2});
  consume(b + c);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'b' is on cuda but 'c' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'b' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
}

void reassignmentReplacesTheDevice() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  a = g;
  consume(a + g);
  a = pl::zeros({2});
  consume(a + g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'g' was created on cuda here
}

void copyThenMoveTheOriginal() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor copy = a;
  a = a.cuda();
  consume(a + pl::ones({2}, pl::kCUDA));
  consume(copy + pl::ones({2}));
}

void unknownResultClearsTheDevice() {
  pl::Tensor a = pl::ones({2});
  a = produce();
  consume(a + pl::ones({2}, pl::kCUDA));
}

void mutatedThroughNonConstReference() {
  pl::Tensor a = pl::ones({2});
  mutate(a);
  consume(a + pl::ones({2}, pl::kCUDA));
}

void modifiedThroughAlias() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor &alias = a;
  alias = alias.cuda();
  consume(a + pl::ones({2}, pl::kCUDA));
}

void modifiedThroughPointer() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor *p = &a;
  *p = p->cuda();
  consume(a + pl::ones({2}, pl::kCUDA));
}

void swapped() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  std::swap(a, g);
  consume(a + pl::ones({2}, pl::kCUDA));
  consume(g + pl::ones({2}));
}

void readOnlyUsesKeepTheDevice() {
  pl::Tensor a = pl::ones({2});
  consume(a);
  const pl::Tensor &view = a;
  consume(view.relu());
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a * g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
}

// set_data: the tensor takes its argument's data, and its device.
void setDataTakesTheArgumentsDevice() {
  pl::Tensor w = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  w.set_data(pl::zeros({2}, pl::kCUDA));
  consume(w + g);
  pl::Tensor c = pl::ones({2});
  consume(w * c);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'w' is on cuda but 'c' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:14: note: 'w' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
}
