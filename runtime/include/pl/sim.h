// The simulated accelerator "sim": a testing device, never CUDA. It has a
// fixed number of devices (sim:0 and sim:1), keeps its memory in its own
// host allocations, runs the CPU kernels on them, and counts every byte moved
// to, from and between sim devices. Like a GPU it is asynchronous: work on
// a sim device is queued on the current stream (<pl/stream.h>) and runs later
// on that stream's worker thread; host reads of sim values wait for it.
#pragma once

#include <chrono>
#include <cstdint>

namespace pl::sim {

inline constexpr int kDeviceCount = 2;

int device_count();

struct TransferStats {
  std::uint64_t host_to_device_bytes = 0;
  std::uint64_t device_to_host_bytes = 0;
  std::uint64_t device_to_device_bytes = 0; // sim:i -> sim:j, i != j
  std::uint64_t host_to_device_copies = 0;
  std::uint64_t device_to_host_copies = 0;
  std::uint64_t device_to_device_copies = 0;
  friend bool operator==(const TransferStats &, const TransferStats &) = default;
};

// Totals over all sim devices since the start or the last reset.
TransferStats transfer_stats();
void reset_transfer_stats();

// Bytes currently allocated to tensors on sim:index (not counting the cache).
// Waits for the work queued on the device first (freeing is queued too).
std::uint64_t allocated_bytes(int index);

// The chaos switch: how late queued sim work runs, so that a missing
// synchronisation shows in a test every time. Set with set_delay, or from
// the environment before the first sim work: PL_SIM_DELAY=none (the
// default), <N>us or <N>ms (each task waits that long before it runs) or
// sync (work is held until a synchronisation waits for it: stream or device
// synchronize, an event's synchronize, a blocking copy).
enum class DelayMode { kNone, kLate, kUntilSynchronized };
struct Delay {
  DelayMode mode = DelayMode::kNone;
  std::chrono::microseconds per_task{0};

  static Delay none() { return {}; }
  static Delay late(std::chrono::microseconds per_task) { return {DelayMode::kLate, per_task}; }
  static Delay until_synchronized() { return {DelayMode::kUntilSynchronized, {}}; }
  friend bool operator==(const Delay &, const Delay &) = default;
};
void set_delay(Delay delay);
// The current setting (PL_SIM_DELAY's until set_delay; pl::Error when
// PL_SIM_DELAY is not a delay).
Delay delay();

} // namespace pl::sim
