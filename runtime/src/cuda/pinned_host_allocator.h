// Page-locked (pinned) host memory, after PyTorch's CachingHostAllocator:
// cudaHostAlloc and cudaFreeHost are slow and synchronise, so blocks are
// cached in power-of-two size classes. A block that a queued copy reads or
// writes carries an event recorded after that copy (record_use); when freed,
// it is handed out again only once all its events have completed, so freeing
// a pinned tensor right after queuing a copy is safe.
//
// Serves pinned tensors: Tensor::pin_memory, pinned_memory(true), and the
// results of non_blocking device-to-host copies.
#pragma once

#include <cstddef>
#include <cuda_runtime_api.h>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pl::cuda::detail {

class PinnedHostAllocator {
public:
  // A pinned block of at least `bytes` (> 0); AllocationError when the
  // system cannot pin that much.
  void *allocate(std::size_t bytes);
  // `ptr` as returned by allocate; reused once the work recorded on it is done.
  void deallocate(void *ptr) noexcept;
  // If `ptr` lies in one of this allocator's live blocks, records an event on
  // `stream` of `device` after the work queued there so far (the copy that
  // uses the block) and returns true; returns false for other memory.
  bool record_use(const void *ptr, int device, cudaStream_t stream);
  // Frees every idle block; blocks in use or awaiting their copies stay.
  void empty_cache();

private:
  struct Block {
    std::size_t size = 0;
    bool in_use = false;
    std::vector<std::pair<int, cudaEvent_t>> pending; // (device, event) of queued copies
  };

  // Moves freed blocks whose copies have completed to the idle lists.
  void reclaim_completed();
  // Whether every event of `block` has completed; recycles those that have.
  bool copies_done(Block &block);
  cudaEvent_t take_event(int device);

  std::mutex mutex_;
  std::map<char *, Block, std::greater<>> blocks_;             // every block, by base address
  std::unordered_map<std::size_t, std::vector<char *>> idle_; // by size class
  std::vector<char *> awaiting_;                              // freed, copies still queued
  std::unordered_map<int, std::vector<cudaEvent_t>> idle_events_; // by device
};

// The process-wide allocator; never destroyed (see caching_allocator()).
PinnedHostAllocator &pinned_host_allocator();

} // namespace pl::cuda::detail
