#include "pinned_staging.h"

#include "cuda_error.h"
#include "device_context.h"

#include <algorithm>
#include <bit>

namespace pl::cuda::detail {
namespace {

// Staging buffers come in powers of two from 64 KiB, so a few buffers serve
// copies of any size.
constexpr std::size_t kMinStagingBytes = std::size_t{64} << 10;

std::size_t staging_class(std::size_t bytes) {
  return std::bit_ceil(std::max(bytes, kMinStagingBytes));
}

} // namespace

void PinnedStagingPool::reclaim_finished() {
  std::size_t kept = 0;
  for (InFlight &entry : in_flight_) {
    const cudaError_t status = cudaEventQuery(entry.done);
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      in_flight_[kept++] = entry;
      continue;
    }
    PL_CUDA_CHECK(status);
    idle_[entry.buffer.size].push_back(entry.buffer.data);
    idle_events_[entry.device].push_back(entry.done);
  }
  in_flight_.resize(kept);
}

PinnedBuffer PinnedStagingPool::acquire(std::size_t bytes) {
  const std::size_t size = staging_class(bytes);
  std::lock_guard lock(mutex_);
  reclaim_finished();
  if (auto bin = idle_.find(size); bin != idle_.end() && !bin->second.empty()) {
    void *data = bin->second.back();
    bin->second.pop_back();
    return {data, size};
  }
  void *data = nullptr;
  PL_CUDA_CHECK(cudaHostAlloc(&data, size, cudaHostAllocDefault));
  return {data, size};
}

cudaEvent_t PinnedStagingPool::take_event(int device) {
  auto &events = idle_events_[device];
  if (!events.empty()) {
    cudaEvent_t event = events.back();
    events.pop_back();
    return event;
  }
  cudaEvent_t event = nullptr;
  DeviceGuard guard(device);
  PL_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return event;
}

void PinnedStagingPool::release_after_queued_work(PinnedBuffer buffer, int device,
                                                  cudaStream_t stream) {
  std::lock_guard lock(mutex_);
  cudaEvent_t done = take_event(device);
  DeviceGuard guard(device);
  PL_CUDA_CHECK(cudaEventRecord(done, stream));
  in_flight_.push_back({buffer, device, done});
}

void PinnedStagingPool::empty_cache() {
  std::lock_guard lock(mutex_);
  reclaim_finished();
  for (auto &[size, buffers] : idle_)
    for (void *data : buffers)
      PL_CUDA_CHECK(cudaFreeHost(data));
  idle_.clear();
}

PinnedStagingPool &pinned_staging_pool() {
  static PinnedStagingPool *const pool = new PinnedStagingPool();
  return *pool;
}

} // namespace pl::cuda::detail
