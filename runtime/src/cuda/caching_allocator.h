// Device memory with a cache in front of cudaMalloc, after PyTorch's
// CUDACachingAllocator: cudaMalloc and cudaFree synchronise the device and
// cost tens of microseconds, so freed blocks are kept per device in
// size-class bins and handed out again. As in PyTorch, a block belongs to
// the stream it was allocated on, and a freed block is handed out again only
// for that stream: work queued there later is ordered after every use of
// the block by its previous owner, so a block freed by the host can be
// reused at once. (Using a tensor on another stream than its own needs a
// synchronisation before it is freed, as in libtorch.)
#pragma once

#include <bit>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace pl::cuda::detail {

struct CachingAllocatorStats {
  std::size_t allocated_bytes = 0; // held by tensors now (rounded sizes)
  std::size_t reserved_bytes = 0;  // obtained from cudaMalloc and not yet freed
};

class CachingAllocator {
public:
  // Requests are rounded up to a size class: multiples of 512 bytes up to
  // 1 MiB, then eight classes per power of two (at most 12.5% slack).
  static constexpr std::size_t size_class(std::size_t bytes) {
    constexpr std::size_t kMinBlock = 512;
    constexpr std::size_t kSmallLimit = std::size_t{1} << 20;
    constexpr std::size_t kClassesPerPowerOfTwo = 8;
    if (bytes <= kSmallLimit) {
      const std::size_t blocks = (bytes + kMinBlock - 1) / kMinBlock;
      return (blocks == 0 ? 1 : blocks) * kMinBlock;
    }
    // Between 2^k and 2^(k+1) the classes are 2^k/8 apart.
    const std::size_t step = std::bit_floor(bytes) / kClassesPerPowerOfTwo;
    return (bytes + step - 1) / step * step;
  }

  // At least `bytes` on `device`. When cudaMalloc runs out of memory, every
  // cached block of that device goes back to the driver and the allocation
  // is tried once more; if that fails too, throws pl::AllocationError.
  // The block belongs to `stream` of `device`.
  void *allocate(int device, std::size_t bytes, cudaStream_t stream);
  // Puts a block back into its stream's bin; `bytes` as passed to allocate().
  void deallocate(int device, void *ptr, std::size_t bytes) noexcept;
  // Returns every cached (free) block of every device to the driver.
  void empty_cache();

  CachingAllocatorStats stats(int device) const;

private:
  using SizeBins = std::unordered_map<std::size_t, std::vector<void *>>; // by size class
  struct DevicePool {
    std::unordered_map<cudaStream_t, SizeBins> free_blocks;  // by owning stream
    std::unordered_map<void *, cudaStream_t> block_streams; // blocks in use -> their stream
    CachingAllocatorStats stats;
  };

  DevicePool &pool(int device);
  static void release_cached(int device, DevicePool &pool);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<DevicePool>> pools_; // by device index
};

// The process-wide allocator. Never destroyed: tensors may be freed during
// static destruction, and at exit the driver may already be gone.
CachingAllocator &caching_allocator();

} // namespace pl::cuda::detail
