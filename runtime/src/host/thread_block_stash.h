// ThreadBlockStash: a few small freed blocks kept by one thread in front of a
// CachingHostAllocator, so that the per-op hot path (a small result made and
// freed by every op) takes no lock: the allocator's mutex, taken twice per
// op, was a fifth of a 1-element add. Blocks stay the allocator's: any
// thread may free any block; a stash past its bound, or whose thread exits,
// hands blocks back. The allocator must outlive every thread (the cpu's is
// never destroyed).
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/caching_allocator.h"

namespace pl::host {

class ThreadBlockStash {
public:
  // Blocks up to this size (after the allocator's rounding) are stashed.
  static constexpr std::size_t kLargestBlock = 4096;
  // Per size class: bounds what an idle thread holds (at most 288 KiB).
  static constexpr std::size_t kBlocksPerSize = 16;

  explicit ThreadBlockStash(CachingHostAllocator &allocator) noexcept : allocator_(allocator) {}
  ~ThreadBlockStash();
  ThreadBlockStash(const ThreadBlockStash &) = delete;
  ThreadBlockStash &operator=(const ThreadBlockStash &) = delete;

  // As CachingHostAllocator::allocate / deallocate.
  void *allocate(std::size_t nbytes);
  void deallocate(void *ptr, std::size_t nbytes) noexcept;

private:
  // The size class of nbytes, or kSizeClasses when it is not stashed.
  static std::size_t size_class(std::size_t nbytes) noexcept;

  static constexpr std::size_t kSizeClasses = kLargestBlock / CachingHostAllocator::kSmallStep;
  CachingHostAllocator &allocator_;
  void *blocks_[kSizeClasses][kBlocksPerSize] = {};
  std::size_t counts_[kSizeClasses] = {};
};

} // namespace pl::host
