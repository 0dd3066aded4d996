#include "caching_allocator.h"

#include "cuda_error.h"
#include "device_context.h"

#include <pl/error.h>

#include <cuda_runtime_api.h>

namespace pl::cuda::detail {

CachingAllocator::DevicePool &CachingAllocator::pool(int device) {
  const auto index = static_cast<std::size_t>(device);
  if (index >= pools_.size())
    pools_.resize(index + 1);
  if (!pools_[index])
    pools_[index] = std::make_unique<DevicePool>();
  return *pools_[index];
}

void *CachingAllocator::allocate(int device, std::size_t bytes, cudaStream_t stream) {
  const std::size_t size = size_class(bytes);
  std::lock_guard lock(mutex_);
  DevicePool &device_pool = pool(device);
  CachingAllocatorStats &stats = device_pool.stats;

  SizeBins &bins = device_pool.free_blocks[stream];
  if (auto bin = bins.find(size); bin != bins.end() && !bin->second.empty()) {
    void *ptr = bin->second.back();
    bin->second.pop_back();
    device_pool.block_streams.emplace(ptr, stream);
    stats.allocated_bytes += size;
    return ptr;
  }

  DeviceGuard guard(device);
  void *ptr = nullptr;
  cudaError_t status = cudaMalloc(&ptr, size);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    const std::size_t cached_bytes = stats.reserved_bytes - stats.allocated_bytes;
    release_cached(device, device_pool);
    status = cudaMalloc(&ptr, size);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw_out_of_memory(device, size,
                          format_bytes(stats.allocated_bytes) + " held by tensors; " +
                              format_bytes(cached_bytes) +
                              " of cached blocks were released before retrying");
    }
  }
  PL_CUDA_CHECK(status);
  device_pool.block_streams.emplace(ptr, stream);
  stats.allocated_bytes += size;
  stats.reserved_bytes += size;
  return ptr;
}

void CachingAllocator::deallocate(int device, void *ptr, std::size_t bytes) noexcept {
  const std::size_t size = size_class(bytes);
  std::lock_guard lock(mutex_);
  DevicePool &device_pool = pool(device);
  const auto owner = device_pool.block_streams.find(ptr);
  PL_ASSERT(owner != device_pool.block_streams.end());
  const cudaStream_t stream = owner->second;
  device_pool.block_streams.erase(owner);
  device_pool.free_blocks[stream][size].push_back(ptr);
  device_pool.stats.allocated_bytes -= size;
}

void CachingAllocator::release_cached(int device, DevicePool &device_pool) {
  DeviceGuard guard(device);
  for (auto &[stream, bins] : device_pool.free_blocks) {
    for (auto &[size, blocks] : bins) {
      while (!blocks.empty()) {
        PL_CUDA_CHECK(cudaFree(blocks.back()));
        blocks.pop_back();
        device_pool.stats.reserved_bytes -= size;
      }
    }
  }
}

void CachingAllocator::empty_cache() {
  std::lock_guard lock(mutex_);
  for (std::size_t device = 0; device < pools_.size(); ++device)
    if (pools_[device])
      release_cached(static_cast<int>(device), *pools_[device]);
}

CachingAllocatorStats CachingAllocator::stats(int device) const {
  std::lock_guard lock(mutex_);
  const auto index = static_cast<std::size_t>(device);
  if (index >= pools_.size() || !pools_[index])
    return {};
  return pools_[index]->stats;
}

CachingAllocator &caching_allocator() {
  static CachingAllocator *const allocator = new CachingAllocator();
  return *allocator;
}

} // namespace pl::cuda::detail
