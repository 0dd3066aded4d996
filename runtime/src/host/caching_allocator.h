// A caching allocator for host memory, used by the cpu backend and by each
// sim device (one allocator per device). Freed blocks go to a free list
// keyed by their rounded size and are handed out again for the same rounded
// size, so a training loop that allocates the same shapes every step stops
// paying for fresh pages. The cache is bounded; beyond the bound freed blocks
// go back to the system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace pl::host {

class CachingHostAllocator {
public:
  struct Stats {
    std::uint64_t allocated_bytes = 0; // handed out and not yet returned
    std::uint64_t cached_bytes = 0;    // in the free lists
    std::uint64_t cache_hits = 0;
    std::uint64_t system_allocations = 0;
  };

  static constexpr std::size_t kAlignment = 64;
  // Blocks under 1 MiB come in multiples of this (larger ones of 64 KiB).
  static constexpr std::size_t kSmallStep = 512;

  // device_name appears in allocation errors ("cpu", "sim:1").
  CachingHostAllocator(std::string device_name, std::size_t max_cached_bytes);
  ~CachingHostAllocator();
  CachingHostAllocator(const CachingHostAllocator &) = delete;
  CachingHostAllocator &operator=(const CachingHostAllocator &) = delete;

  // nbytes > 0; throws pl::AllocationError when the system has no memory
  // left even after the cache was released.
  void *allocate(std::size_t nbytes);
  void deallocate(void *ptr, std::size_t nbytes) noexcept;
  void empty_cache() noexcept;
  Stats stats() const;

  // The size class a request is served from.
  static std::size_t round_size(std::size_t nbytes) noexcept;

private:
  void release_cache_locked() noexcept;

  const std::string device_name_;
  const std::size_t max_cached_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<void *>> free_blocks_;
  Stats stats_;
};

} // namespace pl::host
