// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Flow sensitivity across branches: devices join where paths meet; paths
// that agree give a definite device, paths that disagree a "may be".
#include <pl/pl.h>

void consume(const pl::Tensor &t);

void branchesAgree(bool flag) {
  pl::Tensor a = pl::ones({2});
  if (flag)
    a = a.cuda();
  else
    a = pl::zeros({2}, pl::kCUDA);
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a * g);
}

void branchesDisagree(bool flag) {
  pl::Tensor a;
  if (flag)
    a = pl::ones({2}, pl::kCUDA);
  else
    a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a * g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' may be on cpu but 'g' is on cuda in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'g' was created on cuda here
}

// The mismatch is only on the path where the branch was not taken; the
// operation inside the branch sees the moved tensor.
void operationInsideTheBranch(bool flag) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  if (flag) {
    a = a.cuda();
    consume(a + g);
  }
  consume(a.cpu() + pl::ones({2}));
}

void mismatchOnlyInsideTheBranch(bool flag) {
  pl::Tensor a = pl::ones({2});
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  if (flag) {
    consume(a + g);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'a' was created on cpu here
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'g' was created on cuda here
  }
  a = a.cuda();
  consume(a + g);
}

void conditionalOperator(bool flag) {
  pl::Tensor x = pl::ones({2});
  pl::Tensor y = flag ? x.cuda() : x;
  pl::Tensor c = pl::ones({2});
  consume(y - c);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'y' may be on cuda but 'c' is on cpu in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'y' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'c' was created on cpu here
  pl::Tensor z = flag ? x.cuda() : pl::ones({2}, pl::kCUDA);
  consume(z + pl::ones({2}, pl::kCUDA));
}

// The guard decides the path: on the path that reaches the operation the
// tensor was moved.
void guardedByEarlyExit(bool useCuda) {
  pl::Tensor a = pl::ones({2});
  if (!useCuda)
    return;
  a = a.to(pl::kCUDA);
  pl::Tensor g = pl::ones({2}, pl::kCUDA);
  consume(a + g);
}

void nestedBranches(bool first, bool second) {
  pl::Tensor a = pl::ones({2});
  if (first) {
    if (second)
      a = a.cuda();
    else
      a = a.to(pl::kCUDA);
  } else {
    a = pl::ones({2}, pl::kCUDA);
  }
  consume(a + pl::zeros({2}, pl::kCUDA));
}
