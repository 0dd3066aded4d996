// RUN: %check_placement %s placement-transfer-in-loop,placement-discarded-transfer %t -- -- %mock_includes
//
// Loops in real code: syncs on values a helper returns or a pair holds,
// round trips through a host-only op, a stored rollout uploaded again in
// every epoch (a field at a time, or a minibatch at a time); a batch
// type's own to() called once per batch moves fresh data, and so do slices
// of a dataset and the batches of an iterator advanced in the loop.
#include <torch/torch.h>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

void consume(const torch::Tensor &t);
void record(float value);
namespace torch {
at::Tensor multinomial(const at::Tensor &self, int64_t samples);
} // namespace torch

torch::Tensor stepLoss(const torch::Tensor &x, torch::Device device) {
  return (x.to(device) * 2).sum();
}

void syncOnAHelpersResult(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches)
    record(stepLoss(batch, device).item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'stepLoss(batch, device)' may be on a CUDA device (the device in 'device') and is copied to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
}

std::pair<torch::Tensor, torch::Tensor> lossAndAccuracy(const torch::Tensor &x) {
  torch::Tensor y = x.cuda();
  return {y.sum(), y.mean()};
}

void syncOnPairHalves(const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches) {
    auto [loss, accuracy] = lossAndAccuracy(batch);
    record(loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
  }
}

void syncOnPairHalvesPeriodically(const std::vector<torch::Tensor> &batches) {
  int step = 0;
  for (const torch::Tensor &batch : batches) {
    auto [loss, accuracy] = lossAndAccuracy(batch);
    if (++step % 100 == 0)
      record(loss.item<float>());
  }
}

void sampleOnTheHostEachStep(const torch::Tensor &logits, int steps) {
  torch::Tensor probs = logits.cuda();
  for (int i = 0; i < steps; ++i) {
    torch::Tensor picked = torch::multinomial(probs.cpu(), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'probs' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
    consume(picked.cuda());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'picked' is moved back to cuda right after it was moved to cpu, on every iteration [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:53: note: 'picked' was moved to cpu here
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
    probs = probs * 0.5;
  }
}

struct Rollout {
  torch::Tensor observations;
  torch::Tensor actions;
};

void rolloutFieldsUploadedEveryEpoch(torch::Device device, const Rollout &rollout, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    consume(rollout.observations.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'rollout.observations' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    consume(rollout.actions.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'rollout.actions' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: hoist the transfer before this loop
  }
}

void rolloutUploadedOnce(torch::Device device, const Rollout &rollout, int epochs) {
  torch::Tensor observations = rollout.observations.to(device);
  for (int epoch = 0; epoch < epochs; ++epoch)
    consume(observations);
}

void minibatchesUploadedEveryEpoch(torch::Device device, const torch::Tensor &observations,
                                   int epochs) {
  const std::vector<torch::Tensor> chunks = observations.split(64);
  for (int epoch = 0; epoch < epochs; ++epoch)
    for (size_t i = 0; i < chunks.size(); ++i)
      consume(chunks[i].to(device));
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: a part of 'chunks' is moved to the device in 'device' on every iteration of an outer loop in which 'chunks' does not change [placement-transfer-in-loop]
      // CHECK-MESSAGES: :[[@LINE-4]]:3: note: move 'chunks' to the device once, before this loop
}

// A dataset walked slice by slice in every epoch: each batch is fresh data
// for the device, and the dataset need not fit there.
void datasetSlicedEveryEpoch(torch::Device device, const torch::Tensor &images, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch)
    for (int64_t i = 0; i + 128 <= images.numel(); i += 128)
      consume(images.narrow(0, i, 128).to(device));
}

// A loader walked with an explicit iterator: `++it` makes each batch new.
void loaderWalkedByIterator(torch::Device device, torch::data::StatelessDataLoader &loader) {
  auto it = loader.begin();
  while (it != loader.end()) {
    consume(it->data.to(device));
    ++it;
  }
}

void minibatchesOfAnUploadedRollout(torch::Device device, const torch::Tensor &observations,
                                    int epochs) {
  const std::vector<torch::Tensor> chunks = observations.to(device).split(64);
  for (int epoch = 0; epoch < epochs; ++epoch)
    for (size_t i = 0; i < chunks.size(); ++i)
      consume(chunks[i].to(device));
}

struct Batch {
  torch::Tensor images;
  torch::Tensor labels;
  Batch to(torch::Device device) const { return {images.to(device), labels.to(device)}; }
};

void batchMovedOncePerBatch(torch::Device device, const std::vector<Batch> &loader) {
  for (const Batch &batch : loader) {
    Batch onDevice = batch.to(device);
    consume(onDevice.images + onDevice.labels);
  }
}

void batchMoveDiscarded(torch::Device device, const std::vector<Batch> &loader) {
  for (Batch batch : loader) {
    batch.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the result of 'to' is discarded; 'batch' is not moved in place [placement-discarded-transfer]
    consume(batch.images);
  }
}

// A holder filled in the loop from a tensor that does not change holds that
// same tensor on every iteration: an element read back by a constant index
// or key, a structured binding (of a pair none of whose parts changes: the
// pair is judged whole).
void weightsHeldInAVectorEveryStep(torch::Device device, const torch::Tensor &weights, int steps) {
  for (int step = 0; step < steps; ++step) {
    std::vector<torch::Tensor> held{weights};
    consume(held[0].to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'held[0]' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

void weightsHeldInAMapEveryStep(torch::Device device, const torch::Tensor &weights, int steps) {
  for (int step = 0; step < steps; ++step) {
    std::map<std::string, torch::Tensor> held{{"weights", weights}};
    consume(held.at("weights").to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'held.at("weights")' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

void weightsBoundFromAPairEveryStep(torch::Device device, const torch::Tensor &weights, int steps) {
  for (int step = 0; step < steps; ++step) {
    auto [held, tag] = std::make_pair(weights, 0);
    consume(held.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'held' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
  }
}

// Not the same tensor: an element chosen by the step, a holder of a tensor
// made in the loop, a loop variable.
void batchHeldByTheStep(torch::Device device, const std::vector<torch::Tensor> &batches) {
  for (size_t step = 0; step < batches.size(); ++step) {
    std::vector<torch::Tensor> held{batches[step]};
    consume(held[0].to(device));
  }
}

void noiseHeldEveryStep(torch::Device device, int steps) {
  for (int step = 0; step < steps; ++step) {
    std::optional<torch::Tensor> noise{torch::randn({4})};
    consume(noise.value().to(device));
  }
}

void pairsWalkedByTheLoop(torch::Device device, const std::vector<std::pair<torch::Tensor, int>> &batches) {
  for (const auto &[batch, label] : batches)
    consume(batch.to(device));
}

// `do { ... } while (false)`, a macro's body or a block to break out of,
// runs once: it is no loop.
void blockRunOnce(torch::Device device, const torch::Tensor &weights, bool ready) {
  do {
    if (!ready)
      break;
    consume(weights.to(device));
    record(weights.to(torch::kCPU).item<float>());
  } while (false);
}

void blockRunUntilReady(torch::Device device, const torch::Tensor &weights, bool ready) {
  do {
    consume(weights.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'weights' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
  } while (!ready);
}

// Host values written into a device tensor one element at a time in a loop:
// each write is an operation on the device of its own, its value from the
// host (a table filled cell by cell, a row at a time from a host tensor, a
// value put at an index).
void fillCellByCell(const std::vector<std::vector<float>> &rows) {
  torch::Tensor table = torch::zeros({8, 4}, torch::device(torch::kCUDA));
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < 4; ++j)
      table[i][j] = rows[i][j];
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'table' on cuda is written from the host one element at a time, on every iteration of the loop: each write is a separate operation on the device [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: fill a host tensor in this loop and move it to the device once, after it
  consume(table);
}

void fillRowsFromHost(torch::Device device, const std::vector<torch::Tensor> &hostRows) {
  auto batch = torch::zeros({8, 4}, torch::device(device));
  for (int64_t i = 0; i < 8; ++i)
    batch[i] = hostRows[i].cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'batch' may be on a CUDA device (the device in 'device') and is written from the host one element at a time, on every iteration of the loop: each write is a separate operation on the device [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: fill a host tensor in this loop and move it to the device once, after it
  consume(batch);
}

void putAtIndices(const std::vector<int64_t> &labels) {
  auto onehot = torch::zeros({8, 10}, torch::device(torch::kCUDA));
  for (int64_t i = 0; i < 8; ++i)
    onehot.index_put_({i, labels[i]}, 1.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'onehot' on cuda is written from the host one element at a time, on every iteration of the loop: each write is a separate operation on the device [placement-transfer-in-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: fill a host tensor in this loop and move it to the device once, after it
  consume(onehot);
}

// Look-alikes: the table filled on the host and moved once; a device
// tensor written from another device tensor; one write outside a loop.
void fillOnHostThenMove(const std::vector<std::vector<float>> &rows) {
  torch::Tensor table = torch::zeros({8, 4});
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < 4; ++j)
      table[i][j] = rows[i][j];
  consume(table.to(torch::kCUDA));
}

void copyRowsOnDevice(const torch::Tensor &source) {
  auto gathered = torch::zeros({8, 4}, torch::device(torch::kCUDA));
  auto rows = source.to(torch::kCUDA);
  for (int64_t i = 0; i < 8; ++i)
    gathered[i] = rows[i];
  consume(gathered);
}

void markOnce(torch::Device device) {
  auto mask = torch::zeros({8}, torch::device(device));
  mask[0] = 1.0;
  consume(mask);
}
