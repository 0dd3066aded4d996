// RUN: %check_placement %s placement-transfer-in-loop %t -- -- %mock_includes
//
// Transfers inside loops: an unchanged source moved on every iteration
// (hoist it), a round trip, and a device-to-host sync on every iteration.
// Moving each newly produced batch is the normal pattern and never reported.
#include <pl/pl.h>

#include <vector>

void consume(const pl::Tensor &t);
pl::Tensor loadBatch(int i);
bool nextBatch(pl::Tensor &batch);

void invariantTransferInFor(int steps) {
  pl::Tensor weights = pl::ones({4, 4});
  for (int i = 0; i < steps; ++i) {
    pl::Tensor w = weights.to(pl::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'weights' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    consume(w);
  }
}

void invariantTransferInWhileAndDo(int steps, pl::Device dev) {
  pl::Tensor table = pl::ones({16});
  int i = 0;
  while (i < steps) {
    consume(table.to(dev));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'table' is moved to the device in 'dev' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    ++i;
  }
  do {
    consume(table.cuda());
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'table' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
  } while (--i > 0);
}

void invariantInInnerLoopOnly(int epochs, int steps) {
  for (int e = 0; e < epochs; ++e) {
    pl::Tensor data = pl::full({4}, e);
    for (int s = 0; s < steps; ++s) {
      consume(data.to(pl::kCUDA));
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'data' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: hoist the transfer before this loop
    }
  }
}

void roundTrip(int steps) {
  for (int i = 0; i < steps; ++i) {
    pl::Tensor batch = loadBatch(i);
    pl::Tensor onGpu = batch.to(pl::kCUDA);
    pl::Tensor back = onGpu.to(pl::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'onGpu' is moved back to cpu right after it was moved to cuda, on every iteration [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'onGpu' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
    consume(back);
  }
}

void syncEveryIteration(int steps) {
  pl::Tensor model = pl::ones({4}, pl::kCUDA);
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    pl::Tensor loss = (model * loadBatch(i).cuda()).sum();
    total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
    consume(loss.cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
  }
}

// A non_blocking download is queued, not waited for: each iteration's
// result gathered on the host without a stall.
void nonBlockingDownloadEveryIteration(int steps, std::vector<pl::Tensor> &gathered) {
  for (int i = 0; i < steps; ++i) {
    pl::Tensor onGpu = loadBatch(i).to(pl::kCUDA).relu();
    gathered.push_back(onGpu.to(pl::kCPU, /*non_blocking=*/true));
  }
}

// A computed result copied back is a sync, not a round trip.
void computedResultCopiedBack(int steps) {
  for (int i = 0; i < steps; ++i) {
    pl::Tensor onGpu = loadBatch(i).to(pl::kCUDA);
    pl::Tensor activated = onGpu.relu();
    consume(activated.to(pl::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'activated' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: in this loop
  }
}

// The normal data loop: every batch is new, so moving it is the work.
void batchPatternIsNeverReported(const std::vector<pl::Tensor> &batches, pl::Device dev, int steps) {
  for (const pl::Tensor &batch : batches)
    consume(batch.to(dev));
  for (pl::Tensor batch : batches)
    consume(batch.cuda());
  for (int i = 0; i < steps; ++i) {
    pl::Tensor x = loadBatch(i);
    consume(x.to(dev));
  }
  pl::Tensor current;
  for (int i = 0; i < steps; ++i) {
    current = loadBatch(i);
    consume(current.to(pl::kCUDA));
  }
  pl::Tensor next;
  while (nextBatch(next))
    consume(next.cuda());
}

// The source changes on every iteration.
void sourceChangesInTheLoop(int steps) {
  pl::Tensor state = pl::ones({4});
  for (int i = 0; i < steps; ++i) {
    consume(state.to(pl::kCUDA));
    state = state * 0.5;
  }
  pl::Tensor acc = pl::zeros({4});
  for (int i = 0; i < steps; ++i) {
    acc.add_(loadBatch(i));
    consume(acc.cuda());
  }
}

// Moved in place of itself: only the first iteration copies; afterwards the
// tensor is already on the target and to() returns it.
void movedOntoItself(int steps) {
  pl::Tensor state = pl::ones({4});
  for (int i = 0; i < steps; ++i) {
    state = state.to(pl::kCUDA);
    consume(state);
  }
}

// The target changes on every iteration: each copy goes somewhere else.
void targetChangesInTheLoop(const std::vector<pl::Device> &devices) {
  pl::Tensor weights = pl::ones({4});
  for (const pl::Device &device : devices)
    consume(weights.to(device));
}

// Already on the target device: to() returns the tensor itself, no copy.
void alreadyOnTheTarget(int steps) {
  pl::Tensor weights = pl::ones({4}, pl::kCUDA);
  pl::Tensor host = pl::ones({4});
  for (int i = 0; i < steps; ++i) {
    consume(weights.to(pl::kCUDA));
    consume(host.cpu());
  }
}

// The source's device is unknown: to() is either no copy at all or the same
// copy on every iteration, so it belongs before the loop either way.
void unknownSourceDevice(const pl::Tensor &input, int steps) {
  for (int i = 0; i < steps; ++i)
    consume(input.to(pl::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'input' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
}

void transfersOutsideLoops(int steps) {
  pl::Tensor weights = pl::ones({4});
  pl::Tensor w = weights.to(pl::kCUDA);
  for (int i = 0; i < steps; ++i)
    consume(w * loadBatch(i).cuda());
  float last = w.sum().item<float>();
  consume(w.cpu() * last);
}

// item() on a cpu tensor does not sync a device.
void hostItemInLoop(int steps) {
  pl::Tensor counts = pl::zeros({4});
  float total = 0;
  for (int i = 0; i < steps; ++i)
    total += (counts + loadBatch(i)).sum().item<float>();
  consume(counts * total);
}
