// The host caching allocator behind the cpu and sim backends.
#include "host/caching_allocator.h"
#include "test_support.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
// The absurd-size tests need the system allocator to fail, as it does without
// ASan, rather than ASan aborting the process.
extern "C" const char *__asan_default_options() { return "allocator_may_return_null=1"; }
#endif
#endif

namespace {

using pl::host::CachingHostAllocator;

TEST(CachingHostAllocator, ReusesAFreedBlockOfTheSameSize) {
  CachingHostAllocator allocator("test", std::size_t{1} << 20);
  void *first = allocator.allocate(1000);
  allocator.deallocate(first, 1000);
  void *second = allocator.allocate(1000);
  EXPECT_EQ(second, first);
  const auto stats = allocator.stats();
  EXPECT_EQ(stats.cache_hits, 1u);
  EXPECT_EQ(stats.system_allocations, 1u);
  allocator.deallocate(second, 1000);
}

TEST(CachingHostAllocator, RoundsToSizeClassesAndAligns) {
  EXPECT_EQ(CachingHostAllocator::round_size(1), 512u);
  EXPECT_EQ(CachingHostAllocator::round_size(512), 512u);
  EXPECT_EQ(CachingHostAllocator::round_size(513), 1024u);
  EXPECT_EQ(CachingHostAllocator::round_size((1u << 20) + 1), (1u << 20) + (1u << 16));
  CachingHostAllocator allocator("test", std::size_t{1} << 20);
  void *block = allocator.allocate(3);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % CachingHostAllocator::kAlignment, 0u);
  allocator.deallocate(block, 3);
}

TEST(CachingHostAllocator, TheCacheIsBounded) {
  CachingHostAllocator allocator("test", 1024);
  void *a = allocator.allocate(1024);
  void *b = allocator.allocate(1024);
  allocator.deallocate(a, 1024);
  allocator.deallocate(b, 1024); // over the bound: back to the system
  EXPECT_EQ(allocator.stats().cached_bytes, 1024u);
  EXPECT_EQ(allocator.stats().allocated_bytes, 0u);
  allocator.empty_cache();
  EXPECT_EQ(allocator.stats().cached_bytes, 0u);
}

TEST(CachingHostAllocator, FailureIsAnAllocationErrorNamingTheDevice) {
  CachingHostAllocator allocator("sim:7", 1024);
  EXPECT_THROW_CONTAINING(allocator.allocate(std::size_t{1} << 62), pl::AllocationError,
                          "sim:7: cannot allocate 4.00 EiB");
}

TEST(SimMemory, TensorsAllocateOnTheirOwnDeviceAndGiveItBack) {
  const auto before = pl::sim::allocated_bytes(1);
  const auto other_device = pl::sim::allocated_bytes(0);
  {
    const pl::Tensor t = pl::zeros({1024}, pl::Device("sim:1"));
    EXPECT_EQ(pl::sim::allocated_bytes(1), before + 4096);
    EXPECT_EQ(pl::sim::allocated_bytes(0), other_device);
  }
  EXPECT_EQ(pl::sim::allocated_bytes(1), before);
  EXPECT_THROW_CONTAINING(pl::sim::allocated_bytes(2), pl::DeviceError, "sim:2 does not exist");
}

} // namespace
