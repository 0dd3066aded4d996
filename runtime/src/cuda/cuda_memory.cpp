// The public view of the caching allocator (<pl/cuda.h>), as in torch.cuda:
// empty_cache, memory_allocated, memory_reserved.
#include "caching_allocator.h"
#include "pinned_staging.h"

#include <pl/cuda.h>
#include <pl/error.h>

namespace pl::cuda {
namespace {

detail::CachingAllocatorStats statsOf(const char *function, int device) {
  PL_CHECK(device >= 0, DeviceError, "pl::cuda::", function, ": invalid CUDA device index ",
           device, "; the index must be non-negative");
  return detail::cachingAllocator().stats(device);
}

} // namespace

void empty_cache() {
  detail::cachingAllocator().emptyCache();
  detail::pinnedStagingPool().emptyCache();
}

std::size_t memory_allocated(int device) {
  return statsOf("memory_allocated", device).allocatedBytes;
}

std::size_t memory_reserved(int device) { return statsOf("memory_reserved", device).reservedBytes; }

} // namespace pl::cuda
