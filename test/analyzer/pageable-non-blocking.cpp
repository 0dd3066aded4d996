// RUN: %check_placement %s placement-pageable-non-blocking %t -compile-fixed -- -- %mock_includes
//
// A non_blocking upload overlaps the copy with work only from pinned host
// memory; from pageable memory the driver stages it synchronously. Each
// program with the bug is followed by its correct look-alike.
#include <torch/torch.h>
#include <vector>

void consume(const torch::Tensor &t);
namespace torch {
at::Tensor from_blob(void *data, at::IntArrayRef sizes, at::TensorOptions options = {});
at::Tensor reshape(const at::Tensor &self, at::IntArrayRef shape);
} // namespace torch

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

// Pinned when the program decides it (torch::data's pin_memory option, set
// where CUDA is there): a flag known only at run time may pin; written
// false, it does not.
void stagingBufferPinnedByFlag(torch::Device device, const std::vector<float> &values, bool pin) {
  torch::Tensor staging = torch::empty({64}, torch::TensorOptions().pinned_memory(pin));
  staging.fill_(values[0]);
  consume(staging.to(device, true));
}

void stagingBufferNotPinned(torch::Device device, const std::vector<float> &values) {
  torch::Tensor staging = torch::empty({64}, torch::TensorOptions().pinned_memory(false));
  staging.fill_(values[0]);
  consume(staging.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: non_blocking copy of 'staging' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'staging' is made here in pageable memory
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

// from_blob wraps memory the program owns: a std::vector's elements are in
// ordinary (pageable) memory, so the wrapper is too.
void cameraFrameFromVector(torch::Device device, const std::vector<float> &captured) {
  std::vector<float> frame(captured);
  auto pixels = torch::from_blob(frame.data(), {720, 1280, 3});
  consume(pixels.to(device, /*non_blocking=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: non_blocking copy of 'pixels' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'pixels' is made here in pageable memory
}

// The same through a local pointer into an array, viewed before the copy.
void readingsFromArray(torch::Device device, float first) {
  float readings[256] = {first};
  float *start = &readings[0];
  auto wrapped = torch::from_blob(start, {256}).view({16, 16});
  consume(wrapped.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: non_blocking copy of 'wrapped' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'wrapped' is made here in pageable memory
}

// A view in the free spelling is of its tensor's memory too.
void readingsReshaped(torch::Device device, const std::vector<float> &captured) {
  std::vector<float> readings(captured);
  auto grid = torch::reshape(torch::from_blob(readings.data(), {256}), {16, 16});
  consume(grid.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: non_blocking copy of 'grid' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'grid' is made here in pageable memory
}

// Memory from elsewhere (cudaHostAlloc'd by the caller) may be pinned.
void wrapsWhatTheCallerAllocated(torch::Device device, float *hostBuffer) {
  auto wrapped = torch::from_blob(hostBuffer, {256});
  consume(wrapped.to(device, true));
}

// A container given an allocator of its own (one that pins) is not
// ordinary memory.
template <typename T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(std::size_t n);
  void deallocate(T *p, std::size_t n);
};
template <typename T, typename U>
bool operator==(const PinnedAllocator<T> &, const PinnedAllocator<U> &);
template <typename T, typename U>
bool operator!=(const PinnedAllocator<T> &, const PinnedAllocator<U> &);

void cameraFrameFromPinnedVector(torch::Device device, std::size_t size) {
  std::vector<float, PinnedAllocator<float>> frame(size);
  auto pixels = torch::from_blob(frame.data(), {720, 1280, 3});
  consume(pixels.to(device, /*non_blocking=*/true));
}

// Memory the program page-locks itself is pinned (cudaHostRegister, as
// cuda_runtime_api.h declares it).
extern "C" int cudaHostRegister(void *ptr, std::size_t size, unsigned int flags);

void cameraFrameRegistered(torch::Device device, std::size_t size) {
  std::vector<float> frame(size);
  cudaHostRegister(frame.data(), size * sizeof(float), 0);
  auto pixels = torch::from_blob(frame.data(), {720, 1280, 3});
  consume(pixels.to(device, /*non_blocking=*/true));
}

// Every op allocates its result in ordinary memory, whatever its inputs:
// a collate's stack converted to half is pageable ...
void collatedHalfBatch(torch::Device device, int batchSize) {
  std::vector<torch::Tensor> samples;
  for (int i = 0; i < batchSize; ++i)
    samples.push_back(torch::randn({3, 32, 32}));
  auto batch = torch::stack(samples).to(torch::kHalf);
  consume(batch.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'batch' is made here in pageable memory
}

// ... and so is an op's result computed from a pinned tensor.
void pinnedThenScaled(torch::Device device) {
  auto pinned = torch::randn({64}).pin_memory();
  auto scaled = pinned * 0.5;
  consume(scaled.to(device, true));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: non_blocking copy of 'scaled' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'scaled' is made here in pageable memory
}

void collatedHalfBatchPinned(torch::Device device, int batchSize) {
  std::vector<torch::Tensor> samples;
  for (int i = 0; i < batchSize; ++i)
    samples.push_back(torch::randn({3, 32, 32}));
  auto batch = torch::stack(samples).to(torch::kHalf).pin_memory();
  consume(batch.to(device, true));
}

// A dtype conversion (`to(kHalf)`) of a pinned tensor: see
// pageable-non-blocking-holders.cpp.

// copy_ writes into the destination's own memory: a pinned staging tensor
// stays pinned (a frame from a std::vector copied into it first) ...
void frameCopiedIntoPinnedStaging(torch::Device device, std::vector<float> &frame) {
  auto pixels = torch::from_blob(frame.data(), {720, 1280, 3});
  auto staging = torch::empty({720, 1280, 3}, torch::TensorOptions().pinned_memory(true));
  staging.copy_(pixels);
  consume(staging.to(device, /*non_blocking=*/true));
}

// ... as does a pinned tensor that activations are offloaded into and
// reloaded from,
void activationsOffloadedToPinned(torch::Device device) {
  auto activations = torch::randn({64, 512}, device);
  auto offloaded = torch::empty({64, 512}, torch::TensorOptions().pinned_memory(true));
  offloaded.copy_(activations, /*non_blocking=*/true);
  torch::cuda::synchronize();
  auto onHost = offloaded.to(torch::kCPU);
  consume(onHost.to(device, /*non_blocking=*/true));
}

// while a pageable one stays pageable.
void activationsOffloadedToPageable(torch::Device device) {
  auto activations = torch::randn({64, 512}, device);
  auto offloaded = torch::empty({64, 512});
  offloaded.copy_(activations, /*non_blocking=*/true);
  torch::cuda::synchronize();
  consume(offloaded.to(device, /*non_blocking=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: non_blocking copy of 'offloaded' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: 'offloaded' is made here in pageable memory
  // CHECK-FIXES: {{^}}  auto offloaded = torch::empty({64, 512}).pin_memory();{{$}}
}

// Across functions: a staging tensor a constructor made in pageable memory,
// uploaded by another method; a batch a helper assembles, uploaded by its
// caller. The note names where the memory was made.
class Prefetcher {
public:
  explicit Prefetcher(torch::Device device) : device_(device), staging_(torch::empty({64})) {}
  torch::Tensor next() { return staging_.to(device_, /*non_blocking=*/true); }
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: non_blocking copy of 'staging_' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-3]]:73: note: 'staging_' is made here in pageable memory

private:
  torch::Device device_;
  torch::Tensor staging_;
};
torch::Tensor collate(std::vector<float> &values, int64_t rows) {
  return torch::from_blob(values.data(), {rows, 4}).to(torch::kHalf);
}
void uploadCollated(torch::Device device, std::vector<float> &values) {
  auto batch = collate(values, 16);
  consume(batch.to(device, /*non_blocking=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: non_blocking copy of 'batch' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'batch' is made here in pageable memory
}

// Their correct look-alikes: pinned where they are made.
class PinnedPrefetcher {
public:
  explicit PinnedPrefetcher(torch::Device device)
      : device_(device), staging_(torch::empty({64}).pin_memory()) {}
  torch::Tensor next() { return staging_.to(device_, /*non_blocking=*/true); }

private:
  torch::Device device_;
  torch::Tensor staging_;
};
torch::Tensor collatePinned(std::vector<float> &values, int64_t rows) {
  return torch::from_blob(values.data(), {rows, 4}).to(torch::kHalf).pin_memory();
}
void uploadCollatedPinned(torch::Device device, std::vector<float> &values) {
  consume(collatePinned(values, 16).to(device, /*non_blocking=*/true));
}

// A helper that uploads what its caller gives it: the caller's tensor is
// pageable (reported at the helper's copy, the note at the caller's
// factory), or pinned (nothing).
torch::Tensor uploadAsync(const torch::Tensor &host, torch::Device device) {
  return host.to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: non_blocking copy of 'features' from pageable host memory: it is staged synchronously and overlaps nothing; pin the tensor (pin_memory(), or pinned_memory(true) in its options) [placement-pageable-non-blocking]
  // CHECK-MESSAGES: :[[@LINE+4]]:28: note: 'features' is made here in pageable memory
  // CHECK-FIXES: {{^}}  torch::Tensor features = torch::empty({256, 64}).pin_memory();{{$}}
}
void uploadsThroughHelper(torch::Device device) {
  torch::Tensor features = torch::empty({256, 64});
  consume(uploadAsync(features, device));
}
void uploadsPinnedThroughHelper(torch::Device device) {
  torch::Tensor features = torch::empty({256, 64}).pin_memory();
  consume(uploadAsync(features, device));
}
