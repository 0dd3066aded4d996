// Page-locked (pinned) host memory, after PyTorch's CachingHostAllocator:
// the shared pinned block cache (core/pinned_block_cache.h) over
// cudaHostAlloc'ed blocks, with a CUDA event recorded after each queued copy
// that reads or writes a block (record_use). A freed block is handed out
// again only once all its events have completed, so freeing a pinned tensor
// right after queuing a copy is safe.
//
// Serves pinned tensors: Tensor::pin_memory, pinned_memory(true), and the
// results of non_blocking device-to-host copies.
#pragma once

#include <cstddef>
#include <cuda_runtime_api.h>

#include "core/pinned_block_cache.h"

namespace pl::cuda::detail {

class PinnedHostAllocator {
public:
  PinnedHostAllocator();
  // A pinned block of at least `bytes` (> 0); AllocationError when the
  // system cannot pin that much.
  void *allocate(std::size_t bytes) { return cache_.allocate(bytes); }
  // `ptr` as returned by allocate; reused once the work recorded on it is done.
  void deallocate(void *ptr) noexcept { cache_.deallocate(ptr); }
  // If `ptr` lies in one of this allocator's live blocks, records an event on
  // `stream` of `device` after the work queued there so far (the copy that
  // uses the block) and returns true; returns false for other memory.
  bool record_use(const void *ptr, int device, cudaStream_t stream);
  // Frees every idle block; blocks in use or awaiting their copies stay.
  void empty_cache() { cache_.empty_cache(); }

private:
  backend::PinnedBlockCache cache_;
};

// The process-wide allocator; never destroyed (see caching_allocator()).
PinnedHostAllocator &pinned_host_allocator();

} // namespace pl::cuda::detail
