#include "caching_allocator.h"

#include "cuda_error.h"
#include "device_context.h"

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

void *CachingAllocator::allocate(int device, std::size_t bytes) {
  const std::size_t size = sizeClass(bytes);
  std::lock_guard lock(mutex_);
  DevicePool &devicePool = pool(device);
  CachingAllocatorStats &stats = devicePool.stats;

  if (auto bin = devicePool.freeBlocks.find(size);
      bin != devicePool.freeBlocks.end() && !bin->second.empty()) {
    void *ptr = bin->second.back();
    bin->second.pop_back();
    stats.allocatedBytes += size;
    return ptr;
  }

  DeviceGuard guard(device);
  void *ptr = nullptr;
  cudaError_t status = cudaMalloc(&ptr, size);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    const std::size_t cachedBytes = stats.reservedBytes - stats.allocatedBytes;
    releaseCached(device, devicePool);
    status = cudaMalloc(&ptr, size);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throwOutOfMemory(device, size,
                       formatBytes(stats.allocatedBytes) + " held by tensors; " +
                           formatBytes(cachedBytes) +
                           " of cached blocks were released before retrying");
    }
  }
  PL_CUDA_CHECK(status);
  stats.allocatedBytes += size;
  stats.reservedBytes += size;
  return ptr;
}

void CachingAllocator::deallocate(int device, void *ptr, std::size_t bytes) noexcept {
  const std::size_t size = sizeClass(bytes);
  std::lock_guard lock(mutex_);
  DevicePool &devicePool = pool(device);
  devicePool.freeBlocks[size].push_back(ptr);
  devicePool.stats.allocatedBytes -= size;
}

void CachingAllocator::releaseCached(int device, DevicePool &devicePool) {
  DeviceGuard guard(device);
  for (auto &[size, blocks] : devicePool.freeBlocks) {
    while (!blocks.empty()) {
      PL_CUDA_CHECK(cudaFree(blocks.back()));
      blocks.pop_back();
      devicePool.stats.reservedBytes -= size;
    }
  }
}

void CachingAllocator::emptyCache() {
  std::lock_guard lock(mutex_);
  for (std::size_t device = 0; device < pools_.size(); ++device)
    if (pools_[device])
      releaseCached(static_cast<int>(device), *pools_[device]);
}

CachingAllocatorStats CachingAllocator::stats(int device) const {
  std::lock_guard lock(mutex_);
  const auto index = static_cast<std::size_t>(device);
  if (index >= pools_.size() || !pools_[index])
    return {};
  return pools_[index]->stats;
}

CachingAllocator &cachingAllocator() {
  static CachingAllocator *const allocator = new CachingAllocator();
  return *allocator;
}

} // namespace pl::cuda::detail
