#include "pinned_host_allocator.h"

#include <memory>

#include "cuda_error.h"
#include "cuda_event.h"

#include <pl/error.h>

namespace pl::cuda::detail {
namespace {

backend::PinnedBlockCache::Memory cuda_pinned_memory() {
  return {[](std::size_t bytes) {
            void *data = nullptr;
            const cudaError_t status = cudaHostAlloc(&data, bytes, cudaHostAllocDefault);
            if (status == cudaErrorMemoryAllocation) {
              (void)cudaGetLastError();
              pl::detail::fail<AllocationError>("cannot allocate ", format_bytes(bytes),
                                                " of pinned host memory: out of memory");
            }
            PL_CUDA_CHECK(status);
            return data;
          },
          [](void *block) { PL_CUDA_CHECK(cudaFreeHost(block)); }};
}

} // namespace

PinnedHostAllocator::PinnedHostAllocator() : cache_(cuda_pinned_memory()) {}

bool PinnedHostAllocator::record_use(const void *ptr, int device, cudaStream_t stream) {
  return cache_.record_use(ptr, std::make_shared<CudaEvent>(device, stream));
}

PinnedHostAllocator &pinned_host_allocator() {
  static PinnedHostAllocator *const allocator = new PinnedHostAllocator();
  return *allocator;
}

} // namespace pl::cuda::detail
