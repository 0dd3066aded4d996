// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- -- %mock_includes
// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- \
// RUN:   -config="{CheckOptions: {placement-mixed-device.ApiProfile: pl, placement-discarded-transfer.ApiProfile: pl}}" -- %mock_includes
// RUN: %check_placement -check-suffix=LIBTORCH %s 'placement-*' %t -compile-fixed -- \
// RUN:   -config="{CheckOptions: {ApiProfile: libtorch}}" -- %mock_includes
//
// ApiProfile picks the API model: `auto` (the default) recognises this
// runtime's pl:: API, as does `pl`; under `libtorch` pl::Tensor is not a
// tensor type and nothing is reported (the LIBTORCH prefix pins nothing).
// The last run sets the option globally, which every check reads too.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void reportedUnderAutoAndPl() {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
  a.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cuda' is discarded; 'a' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: a = a.cuda();
}
