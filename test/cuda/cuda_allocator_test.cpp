// The CUDA caching allocator and the pinned host allocator, tested directly
// (fresh instances, not the process-wide ones behind tensors): size-class
// reuse, per-stream bins, what stays cached, the release-and-retry on
// out-of-memory, and the recycling of pinned blocks once their copies are
// done. These need a GPU and
// are skipped, saying why, where there is none; the size formatting of the
// out-of-memory message runs everywhere.
#include "cuda/caching_allocator.h"
#include "cuda/cuda_error.h"
#include "cuda/pinned_host_allocator.h"

#include <pl/pl.h>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace {

using pl::cuda::detail::CachingAllocator;
using pl::cuda::detail::format_bytes;
using pl::cuda::detail::PinnedHostAllocator;

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
  void *first = allocator.allocate(0, 1000, nullptr);
  allocator.deallocate(0, first, 1000);
  void *same_class = allocator.allocate(0, 600, nullptr); // 600 and 1000 both round to 1 KiB
  EXPECT_EQ(same_class, first);
  void *other_class = allocator.allocate(0, 2000, nullptr);
  EXPECT_NE(other_class, first);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 1024u + 2048u);
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 1024u + 2048u);
  allocator.deallocate(0, same_class, 600);
  allocator.deallocate(0, other_class, 2000);
  allocator.empty_cache();
}

TEST_F(CudaAllocatorTest, FreedBlocksStayReservedUntilEmptyCache) {
  CachingAllocator allocator;
  void *block = allocator.allocate(0, 4 * kMiB, nullptr);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 4 * kMiB);
  allocator.deallocate(0, block, 4 * kMiB);
  EXPECT_EQ(allocator.stats(0).allocated_bytes, 0u);
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 4 * kMiB);
  allocator.empty_cache();
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 0u);
}

TEST_F(CudaAllocatorTest, OutOfMemoryReleasesTheCacheRetriesAndThrows) {
  CachingAllocator allocator;
  void *cached = allocator.allocate(0, kMiB, nullptr);
  allocator.deallocate(0, cached, kMiB);
  try {
    (void)allocator.allocate(0, std::size_t{1} << 50, nullptr); // 1 PiB
    FAIL() << "allocating 1 PiB did not throw";
  } catch (const pl::AllocationError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with("cuda:0: cannot allocate")) << message;
    EXPECT_NE(message.find("released before retrying"), std::string::npos) << message;
  }
  EXPECT_EQ(allocator.stats(0).reserved_bytes, 0u) << "the cache was released before the retry";
  void *after = allocator.allocate(0, kMiB, nullptr);
  EXPECT_NE(after, nullptr);
  allocator.deallocate(0, after, kMiB);
  allocator.empty_cache();
}

TEST_F(CudaAllocatorTest, AFreedBlockServesOnlyItsOwnStream) {
  CachingAllocator allocator;
  const auto side = static_cast<cudaStream_t>(pl::cuda::getStreamFromPool().native_handle());
  void *on_side = allocator.allocate(0, 1000, side);
  allocator.deallocate(0, on_side, 1000);
  void *on_default = allocator.allocate(0, 1000, nullptr);
  EXPECT_NE(on_default, on_side) << "reuse across streams would race with the side stream";
  void *again_on_side = allocator.allocate(0, 1000, side);
  EXPECT_EQ(again_on_side, on_side);
  allocator.deallocate(0, on_default, 1000);
  allocator.deallocate(0, again_on_side, 1000);
  allocator.empty_cache();
}

TEST_F(CudaAllocatorTest, PinnedBlockIsReusedOnlyAfterItsCopyIsDone) {
  PinnedHostAllocator pinned;
  void *device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 4096), cudaSuccess);
  void *block = pinned.allocate(100);
  ASSERT_EQ(cudaMemcpyAsync(device, block, 100, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
  EXPECT_TRUE(pinned.record_use(static_cast<char *>(block) + 10, 0, nullptr))
      << "an address inside the block is the block's";
  pinned.deallocate(block);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  void *again = pinned.allocate(100); // the copy is done: the same block
  EXPECT_EQ(again, block);
  void *second = pinned.allocate(100); // the first is taken: a new one
  EXPECT_NE(second, again);
  int pageable = 0;
  EXPECT_FALSE(pinned.record_use(&pageable, 0, nullptr));
  pinned.deallocate(again);
  pinned.deallocate(second);
  pinned.empty_cache();
  ASSERT_EQ(cudaFree(device), cudaSuccess);
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
