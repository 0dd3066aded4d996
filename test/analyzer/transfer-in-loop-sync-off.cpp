// RUN: %check_placement %s placement-transfer-in-loop %t -- \
// RUN:   -config="{CheckOptions: {placement-transfer-in-loop.SyncInLoop: false}}" -- %mock_includes
//
// SyncInLoop=false: device-to-host syncs in loops are accepted (a training
// loop that logs its loss); hoisting and round trips are still reported.
#include <pl/pl.h>

void consume(const pl::Tensor &t);
pl::Tensor loadBatch(int i);

void syncIsAccepted(int steps) {
  pl::Tensor model = pl::ones({4}, pl::kCUDA);
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    pl::Tensor loss = (model * loadBatch(i).cuda()).sum();
    total += loss.item<float>();
    consume(loss.cpu());
    consume(loss.to(pl::kCPU));
  }
}

void invariantStillReported(int steps) {
  pl::Tensor weights = pl::ones({4, 4});
  for (int i = 0; i < steps; ++i)
    consume(weights.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'weights' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
}

void roundTripStillReported(int steps) {
  for (int i = 0; i < steps; ++i) {
    pl::Tensor onGpu = loadBatch(i).cuda();
    consume(onGpu.cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'onGpu' is moved back to cpu right after it was moved to cuda, on every iteration [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:37: note: 'onGpu' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: in this loop
  }
}
