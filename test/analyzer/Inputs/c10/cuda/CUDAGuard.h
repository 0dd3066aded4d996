// A small stand-in for libtorch 1.13's <c10/cuda/CUDAGuard.h>, with the
// generic guards of <c10/core/DeviceGuard.h> and <c10/core/StreamGuard.h>,
// device_of of <ATen/DeviceGuard.h> and set_device of
// <c10/cuda/CUDAFunctions.h>: the real namespaces, aliases and signatures.
// The real headers need the CUDA toolkit's, which clang's -nocudainc leaves
// out. No definitions: the tests only parse.
#pragma once

#include <torch/torch.h>

#include <optional>

namespace c10 {
class DeviceGuard {
public:
  explicit DeviceGuard(Device device);
  DeviceGuard(const DeviceGuard &) = delete;
  ~DeviceGuard();
  void reset_device(Device device);
  void set_index(DeviceIndex index);
};
class OptionalDeviceGuard {
public:
  OptionalDeviceGuard();
  explicit OptionalDeviceGuard(Device device);
  explicit OptionalDeviceGuard(std::optional<Device> device);
  OptionalDeviceGuard(const OptionalDeviceGuard &) = delete;
  ~OptionalDeviceGuard();
  void reset_device(Device device);
};
namespace cuda {
class CUDAGuard {
public:
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard &) = delete;
  ~CUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
};
class OptionalCUDAGuard {
public:
  explicit OptionalCUDAGuard();
  explicit OptionalCUDAGuard(Device device);
  explicit OptionalCUDAGuard(std::optional<Device> device);
  explicit OptionalCUDAGuard(DeviceIndex device_index);
  OptionalCUDAGuard(const OptionalCUDAGuard &) = delete;
  ~OptionalCUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  void reset();
};
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard(CUDAStream stream);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  ~CUDAStreamGuard();
};
void set_device(DeviceIndex device);
} // namespace cuda
} // namespace c10

namespace at {
using c10::DeviceGuard;
using c10::OptionalDeviceGuard;
inline std::optional<Device> device_of(const Tensor &t) { return t.device(); }
namespace cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::CUDAStreamGuard;
using c10::cuda::OptionalCUDAGuard;
} // namespace cuda
} // namespace at
