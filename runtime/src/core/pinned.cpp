// Pinned (page-locked) host memory: Tensor::pin_memory, the factories'
// TensorOptions::pinned_memory, and the pinned results of non_blocking
// device-to-host copies. The memory comes from the pinned block cache of the
// accelerator asked for, by default the one present: CUDA's with a CUDA
// device, else sim's.
#include "core/device_enumerator.h"
#include "core/internal.h"

namespace pl {
namespace detail {

DeviceType pinned_memory_accelerator() {
  return backend::devices_for(kCUDA).device_count() > 0 ? kCUDA : kSim;
}

Tensor make_pinned_tensor(IntArrayRef sizes, ScalarType dtype, DeviceType accelerator,
                          std::source_location loc) {
  // Names the call site when the build or the machine has no such device.
  resolve_device(Device(accelerator), loc);
  const std::int64_t numel = checked_numel(sizes, dtype, Device(kCPU));
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<StorageImpl>(
      static_cast<std::size_t>(numel) * element_size(dtype), StorageImpl::PinnedFor{accelerator});
  impl->device = Device(kCPU);
  impl->dtype = dtype;
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->numel = numel;
  return Tensor(std::move(impl));
}

void check_pinnable(std::string_view op, Device device) {
  PL_CHECK(device.is_cpu(), DeviceError, op, ": only cpu tensors can be pinned, but the device is ",
           device);
}

Tensor pinned_if_requested(Tensor made, const TensorOptions &options, std::source_location loc) {
  if (!options.pinned_memory() || made.is_pinned())
    return made;
  return made.pin_memory(std::nullopt, loc);
}

} // namespace detail

Tensor Tensor::pin_memory(std::optional<Device> accelerator, SourceLocation loc) const {
  const TensorImpl &impl = impl_ref();
  detail::check_pinnable(ops::name(ops::OpId::PinMemory), impl.device);
  if (accelerator ? impl.storage->pinned_for() == accelerator->type() : impl.storage->is_pinned())
    return *this;
  const DeviceType pinned_for =
      accelerator ? accelerator->type() : detail::pinned_memory_accelerator();
  Tensor pinned = detail::make_pinned_tensor(impl.sizes, impl.dtype, pinned_for, loc);
  if (impl.numel > 0)
    detail::backend_of(impl.device)
        .copy(impl.device.index(), detail::kernel_arg(pinned), detail::kernel_arg(impl));
  return pinned;
}

} // namespace pl
