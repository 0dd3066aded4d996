// RUN: %check_placement %s placement-pageable-non-blocking %t -compile-fixed -- -- %mock_includes
//
// A non_blocking upload overlaps the copy with work only from pinned host
// memory; from pageable memory the driver stages it synchronously. Each
// program with the bug is followed by its correct look-alike.
#include <torch/torch.h>
#include <vector>

void consume(const torch::Tensor &t);

struct Net : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x);
};

// Synthetic batches built on the host, normalised there, uploaded "async".
void trainOnSyntheticBatches(Net &model, torch::Device device, int steps) {
  for (int step = 0; step < steps; ++step) {
    torch::Tensor batch = torch::randn({64, 512});
    batch = (batch - batch.mean()) / batch.std();
    torch::Tensor x = batch.to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
    // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'batch' is made here in pageable memory
    consume(model.forward(x));
  }
}

void trainOnPinnedBatches(Net &model, torch::Device device, int steps) {
  for (int step = 0; step < steps; ++step) {
    torch::Tensor batch = torch::randn({64, 512}).pin_memory();
    batch.sub_(batch.mean());
    torch::Tensor x = batch.to(device, /*non_blocking=*/true);
    consume(model.forward(x));
  }
}

// A staging buffer filled on the host, then uploaded: pinned where it is made
// (the fix-it), it is pinned once.
void stagingBufferPageable(torch::Device device, const std::vector<float> &values) {
  torch::Tensor staging = torch::empty({64});
  staging.fill_(values[0]);
  consume(staging.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: non_blocking copy of 'staging' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'staging' is made here in pageable memory
  // CHECK-FIXES: {{^}}  torch::Tensor staging = torch::empty({64}).pin_memory();{{$}}
}

void stagingBufferPinned(torch::Device device, const std::vector<float> &values) {
  torch::Tensor staging = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  staging.fill_(values[0]);
  consume(staging.to(device, true));
}

// copy_ into a device tensor from a pageable one.
void copyIntoDeviceBuffer(const torch::Tensor &weights) {
  torch::Tensor onDevice = torch::zeros({64}, torch::kCUDA);
  torch::Tensor update = torch::ones({64});
  update.mul_(0.5);
  onDevice.copy_(update, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: non_blocking copy of 'update' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'update' is made here in pageable memory
  // CHECK-FIXES: {{^}}  torch::Tensor update = torch::ones({64}).pin_memory();{{$}}
}

// A tensor of unknown origin (a parameter, a loader's batch) may be pinned.
void uploadWhatTheCallerGives(torch::Device device, const torch::Tensor &batch) {
  consume(batch.to(device, /*non_blocking=*/true));
}

// Blocking uploads promise nothing.
void blockingUpload(torch::Device device) {
  torch::Tensor batch = torch::randn({64, 512});
  batch.mul_(2);
  consume(batch.to(device));
}

// Made on the host only to be moved: placement-create-then-move's (create it
// on the device), not a second report here.
void madeOnlyToBeMoved(torch::Device device) {
  consume(torch::zeros({8}).to(device, true));
}
