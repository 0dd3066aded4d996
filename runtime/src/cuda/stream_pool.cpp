#include "stream_pool.h"

#include "cuda_error.h"
#include "device_context.h"

#include <array>
#include <atomic>
#include <mutex>
#include <vector>

namespace pl::cuda::detail {
namespace {

// Streams handed out per device and priority before they repeat (as c10's 32).
constexpr std::size_t kPoolSize = 32;

struct DevicePool {
  std::once_flag created;
  std::array<cudaStream_t, kPoolSize> streams{};
  std::atomic<std::size_t> next{0};
};

struct DeviceStreams {
  DevicePool low, high;
};

// One per usable device (the front end resolves indices against that count).
// Never destroyed: streams outlive every tensor, and at exit the driver may
// be gone before static destructors run.
DeviceStreams &streams_of(int device) {
  static auto *const all = new DeviceStreams[static_cast<std::size_t>(usable_device_count())];
  return all[device];
}

// This thread's current stream of each device; nullptr (default) until set.
std::vector<cudaStream_t> &current_streams() {
  thread_local std::vector<cudaStream_t> streams(
      static_cast<std::size_t>(usable_device_count()), nullptr);
  return streams;
}

} // namespace

cudaStream_t current_stream(int device) noexcept {
  return current_streams()[static_cast<std::size_t>(device)];
}

void set_current_stream(int device, cudaStream_t stream) noexcept {
  current_streams()[static_cast<std::size_t>(device)] = stream;
}

cudaStream_t stream_from_pool(int device, bool high_priority) {
  DevicePool &pool = high_priority ? streams_of(device).high : streams_of(device).low;
  std::call_once(pool.created, [&] {
    DeviceGuard guard(device);
    int least = 0, greatest = 0; // numerically: greatest priority is the lowest number
    PL_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (cudaStream_t &stream : pool.streams)
      PL_CUDA_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault,
                                                 high_priority ? greatest : least));
  });
  return pool.streams[pool.next.fetch_add(1, std::memory_order_relaxed) % kPoolSize];
}

} // namespace pl::cuda::detail
