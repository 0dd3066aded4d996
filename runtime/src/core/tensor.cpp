// Tensor construction, metadata, element access, conversion and transfers.
#include <cstring>
#include <limits>

#include "core/autograd_hooks.h"
#include "core/dispatch.h"
#include "core/functors.h"
#include "core/internal.h"

namespace pl {
namespace detail {

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size(), 0);
  std::int64_t stride = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<std::int64_t>(sizes[i], 1);
  }
  return strides;
}

std::int64_t checked_numel(IntArrayRef sizes, ScalarType dtype, Device device) {
  PL_CHECK(sizes.size() <= static_cast<std::size_t>(backend::kMaxDims), ShapeError,
           "tensors have at most ", backend::kMaxDims, " dimensions, but ", sizes.size(),
           " were requested (sizes ", sizes, ")");
  std::int64_t numel = 1;
  bool overflow = false;
  for (std::int64_t size : sizes) {
    PL_CHECK(size >= 0, ShapeError, "negative dimension ", size, " in sizes ", sizes);
    if (size != 0 && numel > std::numeric_limits<std::int64_t>::max() / size)
      overflow = true;
    else
      numel *= size;
  }
  const auto element = static_cast<std::int64_t>(element_size(dtype));
  PL_CHECK(!overflow && numel <= std::numeric_limits<std::int64_t>::max() / element,
           AllocationError, device, ": cannot allocate a tensor of sizes ", sizes, " and dtype ",
           dtype, ": the size in bytes overflows");
  return numel;
}

Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, Device device) {
  const std::int64_t numel = checked_numel(sizes, dtype, device);
  const auto element = static_cast<std::int64_t>(element_size(dtype));
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<StorageImpl>(device, static_cast<std::size_t>(numel * element));
  impl->device = device;
  impl->dtype = dtype;
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->numel = numel;
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor &base, DimVector sizes, DimVector strides,
                 std::int64_t storage_offset) {
  const TensorImpl &source = *base.impl();
  source.storage->mark_used();
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = source.storage;
  impl->device = source.device;
  impl->dtype = source.dtype;
  impl->numel = 1;
  for (std::int64_t size : sizes)
    impl->numel *= size;
  impl->sizes = sizes;
  impl->strides = strides;
  impl->storage_offset = storage_offset;
  return Tensor(std::move(impl));
}

backend::TensorArg kernel_arg(const TensorImpl &impl) {
  PL_ASSERT(impl.sizes.size() <= static_cast<std::size_t>(backend::kMaxDims));
  // Every op, data_ptr() and print reads a tensor through here.
  impl.storage->mark_used();
  guard_host_read("a host op", *impl.storage);
  backend::TensorArg arg{};
  char *base = static_cast<char *>(impl.storage->data());
  // An empty storage has no memory; views of it keep a null pointer.
  arg.data = base == nullptr
                 ? nullptr
                 : base + impl.storage_offset * static_cast<std::int64_t>(element_size(impl.dtype));
  arg.dtype = impl.dtype;
  arg.dim = static_cast<std::int32_t>(impl.sizes.size());
  for (std::size_t d = 0; d < impl.sizes.size(); ++d) {
    arg.sizes[d] = impl.sizes[d];
    arg.strides[d] = impl.strides[d];
  }
  return arg;
}

backend::TensorArg broadcast_arg(const TensorImpl &impl, IntArrayRef out_sizes) {
  PL_ASSERT(out_sizes.size() >= impl.sizes.size() &&
            out_sizes.size() <= static_cast<std::size_t>(backend::kMaxDims));
  backend::TensorArg arg = kernel_arg(impl);
  const std::size_t lead = out_sizes.size() - impl.sizes.size();
  arg.dim = static_cast<std::int32_t>(out_sizes.size());
  for (std::size_t d = 0; d < out_sizes.size(); ++d) {
    arg.sizes[d] = out_sizes[d];
    if (d < lead) {
      arg.strides[d] = 0;
    } else {
      const std::int64_t size = impl.sizes[d - lead];
      PL_ASSERT(size == out_sizes[d] || size == 1);
      arg.strides[d] = size == out_sizes[d] ? impl.strides[d - lead] : 0;
    }
  }
  return arg;
}

backend::ScalarArg scalar_arg(const Scalar &value) {
  if (value.isFloatingPoint()) {
    const double v = value.toDouble();
    // Integral conversion of a non-finite or out-of-range value is undefined;
    // it is only read by integral kernels, which never get a floating scalar.
    const bool representable = v > -9.2e18 && v < 9.2e18;
    return {v, representable ? static_cast<std::int64_t>(v) : 0};
  }
  return {static_cast<double>(value.toLong()), value.toLong()};
}

Scalar cpu_scalar_value(const TensorImpl &impl) {
  PL_ASSERT(impl.device.is_cpu() && impl.numel == 1);
  impl.storage->mark_used();
  const char *data = static_cast<const char *>(impl.storage->data()) +
                     impl.storage_offset * static_cast<std::int64_t>(element_size(impl.dtype));
  return backend::visit_dtype(impl.dtype, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T value;
    std::memcpy(&value, data, sizeof(T));
    return Scalar(value);
  });
}

Tensor cast(const Tensor &tensor, ScalarType dtype) {
  const TensorImpl &impl = *tensor.impl();
  if (impl.dtype == dtype)
    return tensor;
  Tensor out = make_tensor(impl.sizes, dtype, impl.device);
  if (impl.numel > 0)
    backend_of(impl.device).copy(impl.device.index(), kernel_arg(*out.impl()), kernel_arg(impl));
  return out;
}

namespace {

// Byte copy of a contiguous tensor to an equally sized contiguous tensor on
// another device.
void copy_bytes(const TensorImpl &dst, const TensorImpl &src, bool non_blocking) {
  const std::size_t nbytes = static_cast<std::size_t>(src.numel) * element_size(src.dtype);
  if (nbytes == 0)
    return;
  void *to = kernel_arg(dst).data;
  const void *from = kernel_arg(src).data;
  // Asynchronous only from or into memory the device's backend pinned: its
  // block waits for the copy before reuse. Pageable memory may be paged out,
  // and memory pinned outside pl (from_blob) may be freed or changed by its
  // owner at once, so those copies are synchronous.
  if (src.device.is_cpu()) {
    const bool async = non_blocking && src.storage->pinned_for() == dst.device.type();
    backend_of(dst.device).copy_from_host(to, dst.device.index(), from, nbytes, async);
    if (!async)
      note_blocking_copy(dst.device);
  } else if (dst.device.is_cpu()) {
    const bool async = non_blocking && dst.storage->pinned_for() == src.device.type();
    backend_of(src.device).copy_to_host(to, from, src.device.index(), nbytes, async);
    if (!async)
      note_blocking_copy(src.device);
  } else if (src.device.type() == dst.device.type()) {
    backend_of(src.device)
        .copy_between_devices(to, dst.device.index(), from, src.device.index(), nbytes);
  } else {
    // Different backends: through host memory.
    std::vector<char> staging(nbytes);
    backend_of(src.device).copy_to_host(staging.data(), from, src.device.index(), nbytes, false);
    backend_of(dst.device).copy_from_host(to, dst.device.index(), staging.data(), nbytes, false);
    note_blocking_copy(src.device);
    note_blocking_copy(dst.device);
  }
}

} // namespace

Tensor convert(std::string_view op, const Tensor &src, Device target, ScalarType dtype,
               bool non_blocking, bool copy, std::source_location loc) {
  const TensorImpl &impl = *src.impl();
  if (impl.device.is_cpu())
    guard_host_read(op, *impl.storage, loc);
  if (target == impl.device) {
    if (dtype != impl.dtype)
      return cast(src, dtype);
    return copy ? src.clone() : src;
  }
  guard_transfer(op, impl, target, dtype, loc);
  // Page-locked memory is not pageable, whichever accelerator pinned it
  // (the copy from it may still be staged: copy_bytes).
  if (non_blocking && impl.device.is_cpu() && !target.is_cpu() && !impl.storage->is_pinned())
    guard_pageable_non_blocking(op, target, loc);
  // Convert on the side where the data is smaller.
  Tensor moving = element_size(dtype) < element_size(impl.dtype) ? cast(src, dtype) : src;
  moving = moving.contiguous();
  // non_blocking to the host lands in the source backend's pinned memory,
  // where it has some (CUDA), as in libtorch, so that the copy can run
  // asynchronously; its values are there after a synchronisation
  // (pl::cuda::synchronize, Stream::synchronize). Not when the host must
  // convert the values at once: that copy is synchronous.
  const bool pinned_result = non_blocking && target.is_cpu() && moving.dtype() == dtype &&
                             backend_of(impl.device).has_pinned_host_memory();
  Tensor moved = pinned_result
                     ? make_pinned_tensor(moving.sizes(), moving.dtype(), impl.device.type(), loc)
                     : make_tensor(moving.sizes(), moving.dtype(), target);
  copy_bytes(*moved.impl(), *moving.impl(), non_blocking);
  if (pinned_result)
    note_queued_download(*moved.impl()->storage, impl.device, loc);
  return cast(moved, dtype);
}

// A conversion's result, recorded for autograd when it is a new tensor.
Tensor converted(const Tensor &self, Tensor out, std::source_location loc) {
  if (detail::is_tracked(self) && !out.is_same(self)) [[unlikely]]
    detail::autograd_hooks().record(
        {.op = ops::OpId::To, .inputs = self, .outputs = out, .loc = loc});
  return out;
}

} // namespace detail

std::int64_t Tensor::size(std::int64_t dim) const {
  const TensorImpl &impl = impl_ref();
  PL_CHECK(!impl.sizes.empty(), IndexError, "size: a 0-dim tensor has no dimensions");
  return impl.sizes[static_cast<std::size_t>(
      detail::wrap_dim("size", dim, static_cast<std::int64_t>(impl.sizes.size())))];
}

std::int64_t Tensor::stride(std::int64_t dim) const {
  const TensorImpl &impl = impl_ref();
  PL_CHECK(!impl.strides.empty(), IndexError, "stride: a 0-dim tensor has no dimensions");
  return impl.strides[static_cast<std::size_t>(
      detail::wrap_dim("stride", dim, static_cast<std::int64_t>(impl.sizes.size())))];
}

bool Tensor::is_contiguous() const {
  const TensorImpl &impl = impl_ref();
  std::int64_t expected = 1;
  for (std::size_t d = impl.sizes.size(); d-- > 0;) {
    if (impl.sizes[d] != 1 && impl.strides[d] != expected)
      return false;
    expected *= impl.sizes[d];
  }
  return true;
}

void *Tensor::data_ptr(SourceLocation loc) const {
  const TensorImpl &impl = impl_ref();
  if (impl.device.is_cpu())
    detail::guard_host_read("data_ptr", *impl.storage, loc);
  return detail::kernel_arg(impl).data;
}

void *Tensor::typed_data_ptr(ScalarType expected, SourceLocation loc) const {
  PL_CHECK(dtype() == expected, DTypeError, "data_ptr: expected scalar type ", expected,
           " but the tensor has ", dtype());
  return data_ptr(loc);
}

void Tensor::read_item(void *dst, ScalarType as, SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::Item);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(impl.numel == 1, ShapeError, op, ": a tensor with ", impl.numel,
           " elements cannot be converted to a scalar (sizes ", impl.sizes, ")");
  Tensor host = *this;
  if (impl.device.is_cpu()) {
    detail::guard_host_read(op, *impl.storage, loc);
  } else {
    detail::guard_transfer(op, impl, Device(kCPU), impl.dtype, loc);
    // One element, copied on its own.
    host = detail::make_tensor({}, impl.dtype, Device(kCPU));
    detail::backend_of(impl.device)
        .copy_to_host(host.data_ptr(), data_ptr(), impl.device.index(),
                      pl::element_size(impl.dtype), /*non_blocking=*/false);
    detail::note_blocking_copy(impl.device);
  }
  const Scalar value = detail::cpu_scalar_value(*host.impl());
  backend::visit_dtype(as, [&](auto tag) {
    using T = decltype(tag);
    T converted = value.isFloatingPoint() ? functors::cast<T>(value.toDouble())
                                          : functors::cast<T>(value.toLong());
    std::memcpy(dst, &converted, sizeof(T));
  });
}

Scalar Tensor::item(SourceLocation loc) const {
  switch (dtype()) {
  case ScalarType::Bool:
    return Scalar(item<bool>(loc));
  case ScalarType::Long:
    return Scalar(item<std::int64_t>(loc));
  case ScalarType::Float:
  case ScalarType::Double:
    return Scalar(item<double>(loc));
  }
  PL_ASSERT(false && "unknown ScalarType");
  return Scalar(0);
}

Tensor Tensor::to(TensorOptions options, bool non_blocking, bool copy, SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::To);
  const TensorImpl &impl = impl_ref();
  const Device target =
      options.has_device() ? detail::resolve_device(*options.device_opt(), loc) : impl.device;
  return detail::converted(*this,
                           detail::convert(op, *this, target,
                                           options.dtype_opt().value_or(impl.dtype), non_blocking,
                                           copy, loc),
                           loc);
}

Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy,
                  SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::To);
  impl_ref();
  return detail::converted(*this,
                           detail::convert(op, *this, detail::resolve_device(device, loc), dtype,
                                           non_blocking, copy, loc),
                           loc);
}

Tensor Tensor::to(ScalarType dtype, bool non_blocking, bool copy, SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::To);
  return detail::converted(
      *this, detail::convert(op, *this, impl_ref().device, dtype, non_blocking, copy, loc), loc);
}

Tensor Tensor::to(const Tensor &other, bool non_blocking, bool copy, SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::To);
  detail::check_defined(op, "other", other);
  impl_ref();
  return detail::converted(
      *this, detail::convert(op, *this, other.device(), other.dtype(), non_blocking, copy, loc),
      loc);
}

Tensor Tensor::cuda(SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::Cuda);
  const TensorImpl &impl = impl_ref();
  return detail::converted(*this,
                           detail::convert(op, *this,
                                           detail::resolve_device(Device(kCUDA), loc), impl.dtype,
                                           false, false, loc),
                           loc);
}

Tensor Tensor::cpu(SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::Cpu);
  const TensorImpl &impl = impl_ref();
  return detail::converted(
      *this, detail::convert(op, *this, Device(kCPU), impl.dtype, false, false, loc), loc);
}

Tensor &Tensor::copy_(const Tensor &src, bool non_blocking, SourceLocation loc) const {
  const char *op = ops::name(ops::OpId::Copy, /*in_place=*/true);
  const TensorImpl &self = impl_ref();
  detail::check_defined(op, "src", src);
  const TensorImpl &source = *src.impl();
  const auto sizes = detail::broadcast_sizes(op, self.sizes, source.sizes);
  PL_CHECK(IntArrayRef(sizes) == self.sizes, ShapeError, op, ": the source of sizes ",
           source.sizes, " does not broadcast to the destination of sizes ", self.sizes);
  const auto copy = [&] {
    if (self.numel == 0)
      return;
    // Bring the source to this device (an explicit transfer), and never read
    // from memory this copy writes. The host kernel below reads the staged
    // copy at once, so a copy to the host is synchronous here; to a device
    // the kernel is queued after it.
    Tensor staged = src;
    if (source.device != self.device)
      staged = detail::convert(op, src, self.device, source.dtype,
                               non_blocking && !self.device.is_cpu(), false, loc);
    else if (detail::shares_storage(self, source))
      staged = src.clone();
    detail::backend_of(self.device)
        .copy(self.device.index(), detail::kernel_arg(self),
              detail::broadcast_arg(*staged.impl(), self.sizes));
    self.storage->bump_version();
  };
  if (detail::is_tracked(*this, src)) [[unlikely]]
    detail::autograd_hooks().record_in_place(
        {.op = ops::OpId::Copy, .inputs = {*this, src}, .loc = loc}, copy);
  else
    copy();
  return self_ref();
}

void Tensor::set_data(const Tensor &other) const {
  const char *op = ops::name(ops::OpId::SetData, /*in_place=*/true);
  impl_ref();
  detail::check_defined(op, "other", other);
  // The handle keeps its place in autograd (Module::to moves parameters
  // that stay leaves).
  auto meta = std::move(impl_->autograd_meta);
  *impl_ = *other.impl();
  impl_->autograd_meta = std::move(meta);
}

Tensor Tensor::clone() const {
  const TensorImpl &impl = impl_ref();
  Tensor out = detail::make_tensor(impl.sizes, impl.dtype, impl.device);
  if (impl.numel > 0)
    detail::backend_of(impl.device)
        .copy(impl.device.index(), detail::kernel_arg(*out.impl()), detail::kernel_arg(impl));
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::OpId::Clone, .inputs = *this, .outputs = out});
  return out;
}

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }

} // namespace pl
