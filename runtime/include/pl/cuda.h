// CUDA availability, like torch::cuda. Both are false/0, not errors, when
// the build has no CUDA support or the machine has no usable GPU.
#pragma once

#include <source_location>

#include <pl/device.h>

namespace pl::cuda {

bool is_available();
int device_count();

// Waits until all work queued on `device` (-1: the current device), on every
// stream, has finished, like torch::cuda::synchronize. Throws DeviceError
// naming the call site (placement-unguarded-cuda) without a CUDA device.
void synchronize(DeviceIndex device = -1,
                 std::source_location loc = std::source_location::current());

} // namespace pl::cuda
