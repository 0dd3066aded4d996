// The per-thread stash of small blocks in front of the host caching allocator.
#include "host/thread_block_stash.h"
#include "test_support.h"

#include <vector>

namespace {

using pl::host::CachingHostAllocator;
using pl::host::ThreadBlockStash;

TEST(ThreadBlockStash, ReusesASmallBlockWithoutTheAllocator) {
  CachingHostAllocator allocator("test", std::size_t{1} << 20);
  {
    ThreadBlockStash stash(allocator);
    void *first = stash.allocate(4);
    stash.deallocate(first, 4);
    EXPECT_EQ(allocator.stats().allocated_bytes, CachingHostAllocator::kSmallStep)
        << "a stashed block stays handed out as far as the allocator knows";
    void *second = stash.allocate(100); // the same size class
    EXPECT_EQ(second, first);
    EXPECT_EQ(allocator.stats().cache_hits, 0u);
    EXPECT_EQ(allocator.stats().system_allocations, 1u);
    stash.deallocate(second, 100);
  }
  // The stash's end hands its blocks back.
  EXPECT_EQ(allocator.stats().allocated_bytes, 0u);
  EXPECT_EQ(allocator.stats().cached_bytes, CachingHostAllocator::kSmallStep);
}

TEST(ThreadBlockStash, LargeBlocksGoStraightToTheAllocator) {
  CachingHostAllocator allocator("test", std::size_t{1} << 20);
  ThreadBlockStash stash(allocator);
  const std::size_t large = ThreadBlockStash::kLargestBlock + 1;
  void *block = stash.allocate(large);
  stash.deallocate(block, large);
  EXPECT_EQ(allocator.stats().allocated_bytes, 0u);
  EXPECT_EQ(allocator.stats().cached_bytes, CachingHostAllocator::round_size(large));
}

TEST(ThreadBlockStash, HoldsABoundedNumberOfBlocksPerSize) {
  CachingHostAllocator allocator("test", std::size_t{1} << 20);
  ThreadBlockStash stash(allocator);
  std::vector<void *> blocks;
  for (std::size_t i = 0; i < ThreadBlockStash::kBlocksPerSize + 3; ++i)
    blocks.push_back(stash.allocate(8));
  for (void *block : blocks)
    stash.deallocate(block, 8);
  EXPECT_EQ(allocator.stats().cached_bytes, 3 * CachingHostAllocator::kSmallStep);
  EXPECT_EQ(allocator.stats().allocated_bytes,
            ThreadBlockStash::kBlocksPerSize * CachingHostAllocator::kSmallStep);
}

} // namespace
