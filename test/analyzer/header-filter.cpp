// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -- -- %mock_includes -I %S/Inputs/user -isystem %S/Inputs/vendor
// RUN: %check_placement --no-fix -check-suffix=ALL %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -- -header-filter=.* -- \
// RUN:   %mock_includes -I %S/Inputs/user -isystem %S/Inputs/vendor
//
// Only user code is analysed: the main file, and headers the header filter
// matches. System headers never are. This file itself is clean.
#include "helpers.h"
#include <vendor_helpers.h>

// CHECK-MESSAGES-ALL: helpers.h:9:12: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
// CHECK-MESSAGES-ALL: helpers.h:7:18: note: 'a' was created on cpu here
// CHECK-MESSAGES-ALL: helpers.h:8:18: note: 'g' was created on cuda here

void consume(const pl::Tensor &t);

void useBoth() {
  consume(mixInHeader());
  consume(vendorMix());
}
