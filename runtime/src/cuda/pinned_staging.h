// Page-locked host buffers that non_blocking host-to-device copies go
// through. The copy engine reads pageable memory only synchronously, so a
// non_blocking copy first copies the source into a pinned buffer (host
// memcpy, fast), queues the DMA from there and returns; the buffer goes back
// to the pool when an event recorded after the DMA has completed. The source
// tensor may be changed as soon as the call returns.
#pragma once

#include <cstddef>
#include <cuda_runtime_api.h>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace pl::cuda::detail {

struct PinnedBuffer {
  void *data = nullptr;
  std::size_t size = 0;
};

class PinnedStagingPool {
public:
  // A pinned buffer of at least `bytes` that no queued copy still reads.
  PinnedBuffer acquire(std::size_t bytes);
  // Hands `buffer` back once the work queued so far on `stream` of `device`
  // (the copy that reads the buffer) has finished.
  void release_after_queued_work(PinnedBuffer buffer, int device, cudaStream_t stream);
  // Frees every idle buffer; buffers still read by a copy stay.
  void empty_cache();

private:
  struct InFlight {
    PinnedBuffer buffer;
    int device;
    cudaEvent_t done;
  };

  void reclaim_finished();
  cudaEvent_t take_event(int device);

  std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<void *>> idle_; // by size class
  std::vector<InFlight> in_flight_;
  std::unordered_map<int, std::vector<cudaEvent_t>> idle_events_; // by device
};

// The process-wide pool; never destroyed (see caching_allocator()).
PinnedStagingPool &pinned_staging_pool();

} // namespace pl::cuda::detail
