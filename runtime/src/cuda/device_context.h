// Which GPUs exist, and making one of them current for a scope. The CUDA
// device enumerator (cuda_devices(), core/builtin_backends.h) is defined in
// device_context.cpp on top of these.
#pragma once

namespace pl::cuda::detail {

// The number of usable GPUs, probed once. 0 when the driver reports no device
// or is missing: cudaGetDeviceCount then fails, and that is not an error here.
int usable_device_count() noexcept;

// Makes `device` current for the scope and restores the previous device.
class DeviceGuard {
public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;

private:
  int previous_;
  int current_;
};

} // namespace pl::cuda::detail
