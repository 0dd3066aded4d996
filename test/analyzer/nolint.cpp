// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- -- %mock_includes
//
// The NOLINT comments (same line, next line, begin/end) silence placement
// findings like any clang-tidy check's; a NOLINT naming another check does not.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void suppressed(int steps) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g); // NOLINT
  consume(a - g); // NOLINT(placement-mixed-device)
  consume(a * g); // NOLINT(placement-*)
  // NOLINTNEXTLINE(placement-mixed-device)
  consume(a / g);
  a.cuda(); // NOLINT(placement-discarded-transfer)
  // NOLINTBEGIN(placement-transfer-in-loop)
  for (int i = 0; i < steps; ++i)
    consume(a.cuda());
  // NOLINTEND(placement-transfer-in-loop)
}

void notSuppressed() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g); // NOLINT(bugprone-use-after-move)
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
  // NOLINTNEXTLINE(placement-discarded-transfer)
  pl::Tensor unrelated = pl::ones({2});
  g.cpu(); // NOLINT(placement-mixed-device)
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cpu' is discarded; 'g' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: g = g.cpu(); // NOLINT(placement-mixed-device)
  consume(unrelated);
}
