#include "pinned_host_allocator.h"

#include "cuda_error.h"
#include "device_context.h"

#include <pl/error.h>

#include <algorithm>
#include <bit>

namespace pl::cuda::detail {
namespace {

// Blocks come in powers of two from 512 bytes, so a few blocks serve
// tensors and staging copies of any size.
constexpr std::size_t kMinBlockBytes = 512;

std::size_t size_class(std::size_t bytes) {
  return std::bit_ceil(std::max(bytes, kMinBlockBytes));
}

} // namespace

bool PinnedHostAllocator::copies_done(Block &block) {
  while (!block.pending.empty()) {
    const auto [device, event] = block.pending.back();
    const cudaError_t status = cudaEventQuery(event);
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    PL_CUDA_CHECK(status);
    idle_events_[device].push_back(event);
    block.pending.pop_back();
  }
  return true;
}

void PinnedHostAllocator::reclaim_completed() {
  std::erase_if(awaiting_, [&](char *base) {
    Block &block = blocks_.at(base);
    if (!copies_done(block))
      return false;
    idle_[block.size].push_back(base);
    return true;
  });
}

void *PinnedHostAllocator::allocate(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  std::lock_guard lock(mutex_);
  reclaim_completed();
  if (auto bin = idle_.find(size); bin != idle_.end() && !bin->second.empty()) {
    char *base = bin->second.back();
    bin->second.pop_back();
    blocks_.at(base).in_use = true;
    return base;
  }
  void *data = nullptr;
  const cudaError_t status = cudaHostAlloc(&data, size, cudaHostAllocDefault);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    pl::detail::fail<AllocationError>("cannot allocate ", format_bytes(size),
                                      " of pinned host memory: out of memory");
  }
  PL_CUDA_CHECK(status);
  blocks_.emplace(static_cast<char *>(data), Block{size, true, {}});
  return data;
}

void PinnedHostAllocator::deallocate(void *ptr) noexcept {
  std::lock_guard lock(mutex_);
  const auto found = blocks_.find(static_cast<char *>(ptr));
  if (found == blocks_.end())
    return;
  found->second.in_use = false;
  // Checked at the next allocation: an event query here could throw.
  awaiting_.push_back(found->first);
}

bool PinnedHostAllocator::record_use(const void *ptr, int device, cudaStream_t stream) {
  auto *const address = static_cast<char *>(const_cast<void *>(ptr));
  std::lock_guard lock(mutex_);
  // The block with the greatest base at or below ptr (the map is descending).
  const auto found = blocks_.lower_bound(address);
  if (found == blocks_.end() || !found->second.in_use ||
      address >= found->first + found->second.size)
    return false;
  const cudaEvent_t event = take_event(device);
  DeviceGuard guard(device);
  PL_CUDA_CHECK(cudaEventRecord(event, stream));
  found->second.pending.emplace_back(device, event);
  return true;
}

cudaEvent_t PinnedHostAllocator::take_event(int device) {
  auto &events = idle_events_[device];
  if (!events.empty()) {
    const cudaEvent_t event = events.back();
    events.pop_back();
    return event;
  }
  cudaEvent_t event = nullptr;
  DeviceGuard guard(device);
  PL_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return event;
}

void PinnedHostAllocator::empty_cache() {
  std::lock_guard lock(mutex_);
  reclaim_completed();
  for (auto &[size, bases] : idle_) {
    for (char *base : bases) {
      PL_CUDA_CHECK(cudaFreeHost(base));
      blocks_.erase(base);
    }
  }
  idle_.clear();
}

PinnedHostAllocator &pinned_host_allocator() {
  static PinnedHostAllocator *const allocator = new PinnedHostAllocator();
  return *allocator;
}

} // namespace pl::cuda::detail
