// RUN: %check_placement %s placement-pageable-non-blocking %t -- -- %mock_includes
//
// The memory of a tensor that reaches a non_blocking upload through a
// holder: a struct's field set by a constructor or an aggregate
// initialiser and uploaded by a method, a getter lambda, a container's
// element; and a dtype conversion, which allocates. Each program with the
// bug is followed by its correct look-alike.
#include <torch/torch.h>
#include <vector>

void consume(const torch::Tensor &t);

// A step that holds its batch and device as fields, set in a constructor,
// and uploads the batch in a method: the memory is what the caller stored.
struct UploadStep {
  torch::Tensor batch;
  torch::Device device;
  UploadStep(torch::Tensor batchValue, torch::Device deviceValue)
      : batch(batchValue), device(deviceValue) {}
  torch::Tensor run() { return batch.to(device, /*non_blocking=*/true); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE+4]]:54: note: 'batch' is made here in pageable memory
};

void stepFromScaledBatch(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}) * 2.0 - 1.0;
  UploadStep step(batch, device);
  consume(step.run());
}

void stepFromPinnedBatch(torch::Device device) {
  torch::Tensor batch = (torch::randn({64, 32}) * 2.0 - 1.0).pin_memory();
  UploadStep step(batch, device);
  consume(step.run());
}

// A constructor that pins what it is given: the field holds pinned memory
// whatever the caller passed.
struct PinningStep {
  torch::Tensor batch;
  torch::Device device;
  PinningStep(torch::Tensor batchValue, torch::Device deviceValue)
      : batch(batchValue), device(deviceValue) {
    batch = batch.pin_memory();
  }
  torch::Tensor run() { return batch.to(device, /*non_blocking=*/true); }
};

void pinningStepFromScaledBatch(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}) * 2.0 - 1.0;
  PinningStep step(batch, device);
  consume(step.run());
}

// The same held by aggregate initialisation.
struct AggregateStep {
  torch::Tensor batch;
  torch::Device device;
  torch::Tensor run() { return batch.to(device, /*non_blocking=*/true); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE+4]]:48: note: 'batch' is made here in pageable memory
};

void aggregateStepFromNormalisedBatch(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}).relu();
  AggregateStep step{batch, device};
  consume(step.run());
}

void aggregateStepFromPinnedBatch(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}).relu().pin_memory();
  AggregateStep step{batch, device};
  consume(step.run());
}

// A method that replaces the field before it uploads it: what the caller
// stored is not what is copied.
struct RefreshingStep {
  torch::Tensor batch;
  torch::Device device;
  torch::Tensor run() {
    batch = batch.pin_memory();
    return batch.to(device, /*non_blocking=*/true);
  }
};

void refreshingStepFromScaledBatch(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}) * 2.0;
  RefreshingStep step{batch, device};
  consume(step.run());
}

// A getter lambda gives back the variable it captured: its memory is that
// variable's, pinned or not ...
void uploadThroughGetterOfPinned(torch::Device device) {
  const torch::Tensor batch = (torch::randn({64, 32}) * 2.0).pin_memory();
  auto held = [&] { return batch; };
  consume(held().to(device, /*non_blocking=*/true));
}

void uploadThroughGetterOfPageable(torch::Device device) {
  const torch::Tensor batch = torch::randn({64, 32}) * 2.0;
  auto held = [&] { return batch; };
  consume(held().to(device, /*non_blocking=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: non_blocking copy of 'held()' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-4]]:54: note: 'held()' is made here in pageable memory
}

void uploadThroughCopyingGetterOfPinned(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}).pin_memory();
  auto held = [batch] { return batch; };
  consume(held().to(device, /*non_blocking=*/true));
}

// ... a lambda that computes its result allocates it in ordinary memory ...
void uploadThroughScalingLambda(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32}).pin_memory();
  auto scaled = [&] { return batch * 0.5; };
  consume(scaled().to(device, /*non_blocking=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: non_blocking copy of 'scaled()' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'scaled()' is made here in pageable memory
}

// ... and a variable assigned after the lambda was made is of unknown
// memory at the call (here pinned by then): nothing is reported.
void uploadThroughGetterOfReassigned(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 32});
  auto held = [&] { return batch; };
  batch = batch.pin_memory();
  consume(held().to(device, /*non_blocking=*/true));
}

// An element of a container is what was put in it, not a new tensor.
void uploadPinnedElement(torch::Device device) {
  std::vector<torch::Tensor> batches{torch::randn({64, 32}).pin_memory()};
  consume(batches[0].to(device, /*non_blocking=*/true));
}

// A dtype conversion allocates a new tensor in ordinary memory, also of a
// pinned tensor ...
void pinnedThenConverted(torch::Device device) {
  auto pinned = torch::randn({64}).pin_memory();
  auto converted = pinned.to(torch::kHalf);
  consume(converted.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: non_blocking copy of 'converted' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'converted' is made here in pageable memory
}

void pinnedAfterConversion(torch::Device device) {
  auto converted = torch::randn({64}).to(torch::kHalf).pin_memory();
  consume(converted.to(device, true));
}

// ... and of a pageable one stays pageable, made where that was made.
void pageableThenConverted(torch::Device device) {
  auto batch = torch::randn({64});
  consume(batch.to(torch::kHalf).to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: non_blocking copy of 'batch.to(torch::kHalf)' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'batch.to(torch::kHalf)' is made here in pageable memory
}

// A conversion to a dtype the code reads from elsewhere may be to the
// tensor's own dtype, which gives the tensor itself: not reported.
void pinnedThenConvertedToGiven(torch::Device device, torch::ScalarType dtype) {
  auto pinned = torch::randn({64}).pin_memory();
  consume(pinned.to(dtype).to(device, true));
}

// copy_ writes into the destination's memory: a pinned tensor converted
// by copying into it stays pinned.
void convertedIntoPinnedStaging(torch::Device device) {
  auto staging =
      torch::empty({64}, torch::TensorOptions().dtype(torch::kHalf).pinned_memory(true));
  staging.copy_(torch::randn({64}));
  consume(staging.to(device, true));
}
