// The CUDA caching allocator and the pinned staging pool, tested directly
// (fresh instances, not the process-wide ones behind tensors): size-class
// reuse, what stays cached, the release-and-retry on out-of-memory, and the
// recycling of staging buffers once their copy is done. These need a GPU and
// are skipped, saying why, where there is none; the size formatting of the
// out-of-memory message runs everywhere.
#include "cuda/caching_allocator.h"
#include "cuda/cuda_error.h"
#include "cuda/pinned_staging.h"

#include <pl/pl.h>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace {

using pl::cuda::detail::CachingAllocator;
using pl::cuda::detail::format_bytes;
using pl::cuda::detail::PinnedBuffer;
using pl::cuda::detail::PinnedStagingPool;

constexpr std::size_t kMiB = std::size_t{1} << 20;

class CudaAllocatorTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!pl::cuda::is_available())
      GTEST_SKIP() << "no CUDA GPU is available (pl::cuda::is_available() is false)";
  }
};

TEST_F(CudaAllocatorTest, FreedBlockServesRequestsOfItsSizeClass) {
  CachingAllocator allocator;
  void *first = allocator.allocate(0, 1000);
  allocator.deallocate(0, first, 1000);
  void *same_class = allocator.allocate(0, 600); // 600 and 1000 both round to 1 KiB
  EXPECT_EQ(same_class, first);
  void *other_class = allocator.allocate(0, 2000);
  EXPECT_NE(other_class, first);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 1024u + 2048u);
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 1024u + 2048u);
  allocator.deallocate(0, same_class, 600);
  allocator.deallocate(0, other_class, 2000);
  allocator.empty_cache();
}

TEST_F(CudaAllocatorTest, FreedBlocksStayReservedUntilEmptyCache) {
  CachingAllocator allocator;
  void *block = allocator.allocate(0, 4 * kMiB);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 4 * kMiB);
  allocator.deallocate(0, block, 4 * kMiB);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 0u);
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 4 * kMiB);
  allocator.empty_cache();
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 0u);
}

TEST_F(CudaAllocatorTest, OutOfMemoryReleasesTheCacheRetriesAndThrows) {
  CachingAllocator allocator;
  void *cached = allocator.allocate(0, kMiB);
  allocator.deallocate(0, cached, kMiB);
  try {
    (void)allocator.allocate(0, std::size_t{1} << 50); // 1 PiB
    FAIL() << "allocating 1 PiB did not throw";
  } catch (const pl::AllocationError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with("cuda:0: cannot allocate")) << message;
    EXPECT_NE(message.find("released before retrying"), std::string::npos) << message;
  }
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 0u) << "the cache was released before the retry";
  void *after = allocator.allocate(0, kMiB);
  EXPECT_NE(after, nullptr);
  allocator.deallocate(0, after, kMiB);
  allocator.empty_cache();
}

TEST_F(CudaAllocatorTest, StagingBufferReturnsToThePoolOnceItsCopyIsDone) {
  PinnedStagingPool pool;
  const PinnedBuffer buffer = pool.acquire(100);
  EXPECT_GE(buffer.size, 100u);
  pool.release_after_queued_work(buffer, 0, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const PinnedBuffer again = pool.acquire(100);
  EXPECT_EQ(again.data, buffer.data);
  const PinnedBuffer second = pool.acquire(100); // the first is taken: a new one
  EXPECT_NE(second.data, again.data);
  pool.release_after_queued_work(again, 0, nullptr);
  pool.release_after_queued_work(second, 0, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  pool.empty_cache();
}

TEST(CudaFormatBytesTest, UsesTheLargestBinaryUnitBelowTheSize) {
  EXPECT_EQ(format_bytes(0), "0 bytes");
  EXPECT_EQ(format_bytes(1023), "1023 bytes");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(64 * kMiB), "64.00 MiB");
  EXPECT_EQ(format_bytes(std::size_t{4} << 30), "4.00 GiB");
  EXPECT_EQ(format_bytes(std::size_t{1} << 50), "1.00 PiB");
  EXPECT_EQ(format_bytes(std::size_t{1} << 60), "1024.00 PiB");
}

} // namespace
