#include "host/thread_block_stash.h"

namespace pl::host {

ThreadBlockStash::~ThreadBlockStash() {
  for (std::size_t size = 0; size < kSizeClasses; ++size)
    for (std::size_t i = 0; i < counts_[size]; ++i)
      allocator_.deallocate(blocks_[size][i], (size + 1) * CachingHostAllocator::kSmallStep);
}

std::size_t ThreadBlockStash::size_class(std::size_t nbytes) noexcept {
  const std::size_t size = CachingHostAllocator::round_size(nbytes);
  return size > kLargestBlock ? kSizeClasses : size / CachingHostAllocator::kSmallStep - 1;
}

void *ThreadBlockStash::allocate(std::size_t nbytes) {
  const std::size_t size = size_class(nbytes);
  if (size < kSizeClasses && counts_[size] > 0)
    return blocks_[size][--counts_[size]];
  return allocator_.allocate(nbytes);
}

void ThreadBlockStash::deallocate(void *ptr, std::size_t nbytes) noexcept {
  const std::size_t size = size_class(nbytes);
  if (ptr != nullptr && size < kSizeClasses && counts_[size] < kBlocksPerSize) {
    blocks_[size][counts_[size]++] = ptr;
    return;
  }
  allocator_.deallocate(ptr, nbytes);
}

} // namespace pl::host
