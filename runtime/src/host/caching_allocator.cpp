#include "host/caching_allocator.h"

#include <cstdio>
#include <cstdlib>
#include <limits>

#include <pl/error.h>

namespace pl::host {
namespace {

std::string human_bytes(std::size_t nbytes) {
  static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(nbytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %s", value, kUnits[unit]);
  return text;
}

} // namespace

CachingHostAllocator::CachingHostAllocator(std::string device_name, std::size_t max_cached_bytes)
    : device_name_(std::move(device_name)), max_cached_bytes_(max_cached_bytes) {}

CachingHostAllocator::~CachingHostAllocator() { empty_cache(); }

std::size_t CachingHostAllocator::round_size(std::size_t nbytes) noexcept {
  // Small blocks in 512-byte steps, large ones in 64 KiB steps: few size
  // classes, little waste.
  const std::size_t step = nbytes < (std::size_t{1} << 20) ? kSmallStep : (std::size_t{1} << 16);
  return (nbytes + step - 1) / step * step;
}

void *CachingHostAllocator::allocate(std::size_t nbytes) {
  PL_ASSERT(nbytes > 0);
  PL_CHECK(nbytes <= std::numeric_limits<std::size_t>::max() / 2, AllocationError, device_name_,
           ": cannot allocate ", human_bytes(nbytes), " (", nbytes, " bytes)");
  const std::size_t size = round_size(nbytes);
  {
    std::lock_guard lock(mutex_);
    auto it = free_blocks_.find(size);
    if (it != free_blocks_.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      stats_.cached_bytes -= size;
      stats_.allocated_bytes += size;
      ++stats_.cache_hits;
      return block;
    }
  }
  void *block = std::aligned_alloc(kAlignment, size);
  if (block == nullptr) {
    // The cache may hold the memory we need.
    empty_cache();
    block = std::aligned_alloc(kAlignment, size);
  }
  PL_CHECK(block != nullptr, AllocationError, device_name_, ": cannot allocate ",
           human_bytes(nbytes), " (", nbytes, " bytes): out of memory");
  std::lock_guard lock(mutex_);
  stats_.allocated_bytes += size;
  ++stats_.system_allocations;
  return block;
}

void CachingHostAllocator::deallocate(void *ptr, std::size_t nbytes) noexcept {
  if (ptr == nullptr)
    return;
  const std::size_t size = round_size(nbytes);
  std::lock_guard lock(mutex_);
  stats_.allocated_bytes -= size;
  if (stats_.cached_bytes + size > max_cached_bytes_) {
    std::free(ptr);
    return;
  }
  try {
    free_blocks_[size].push_back(ptr);
  } catch (...) {
    std::free(ptr); // no memory for the bookkeeping: give the block back instead
    return;
  }
  stats_.cached_bytes += size;
}

void CachingHostAllocator::empty_cache() noexcept {
  std::lock_guard lock(mutex_);
  release_cache_locked();
}

void CachingHostAllocator::release_cache_locked() noexcept {
  for (auto &[size, blocks] : free_blocks_)
    for (void *block : blocks)
      std::free(block);
  free_blocks_.clear();
  stats_.cached_bytes = 0;
}

CachingHostAllocator::Stats CachingHostAllocator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

} // namespace pl::host
