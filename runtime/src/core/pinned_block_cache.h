// The cache of pinned host blocks both accelerators use (sim directly, CUDA
// behind cuda::detail::PinnedHostAllocator with cudaHostAlloc'ed blocks and
// CUDA events), so the sim tests test the caching rule CUDA runs: blocks come
// in power-of-two size classes (pinning is slow), and a freed block is handed
// out again only once every copy queued on it has finished. Each queued copy
// leaves its own event on the block (record_use), so a block read by two
// in-flight copies waits for both.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <utility>

#include "core/backend.h"

namespace pl::backend {

class PinnedBlockCache {
public:
  // Where blocks come from and go back to. `pin` returns a block of exactly
  // `bytes` or throws pl::AllocationError; the default pair is plain aligned
  // host memory (sim's "pinned" memory).
  struct Memory {
    std::function<void *(std::size_t bytes)> pin;
    std::function<void(void *block)> unpin;
  };
  static Memory host_memory();

  explicit PinnedBlockCache(Memory memory = host_memory()) : memory_(std::move(memory)) {}
  PinnedBlockCache(const PinnedBlockCache &) = delete;
  PinnedBlockCache &operator=(const PinnedBlockCache &) = delete;

  // A block of at least `bytes` (> 0); AllocationError when there is no memory.
  void *allocate(std::size_t bytes);
  // `ptr` as returned by allocate; reused once the copies recorded on it are done.
  void deallocate(void *ptr) noexcept;
  // If `ptr` lies in a live block, keeps `copy_done` with it (the event after
  // a queued copy that reads or writes it) and returns true; false for memory
  // this cache did not hand out.
  bool record_use(const void *ptr, std::shared_ptr<StreamEvent> copy_done);
  // Unpins every idle block; blocks in use or awaiting their copies stay.
  void empty_cache();

private:
  struct Block {
    std::size_t size = 0;
    bool in_use = false;
    std::vector<std::shared_ptr<StreamEvent>> pending; // one per queued copy
  };
  void reclaim_completed();
  std::map<char *, Block>::iterator live_block_of(const void *ptr);

  const Memory memory_;
  std::mutex mutex_;
  std::map<char *, Block> blocks_;                            // every block, by base address
  std::unordered_map<std::size_t, std::vector<char *>> idle_; // by size class
  std::vector<char *> awaiting_;                              // freed, copies still queued
};

} // namespace pl::backend
