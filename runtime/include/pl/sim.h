// The simulated accelerator "sim": a testing device, never CUDA. It has a
// fixed number of devices (sim:0 and sim:1), keeps its memory in its own
// host allocations, runs the CPU kernels on them, and counts every byte moved
// to, from and between sim devices.
#pragma once

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
std::uint64_t allocated_bytes(int index);

} // namespace pl::sim
