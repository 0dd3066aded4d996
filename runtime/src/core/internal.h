// Helpers shared by the front end's translation units (not installed).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <source_location>
#include <string_view>
#include <vector>

#include <pl/tensor.h>
#include <pl/transfer_guard.h>

#include "core/backend.h"
#include "core/op_catalogue.h"

namespace pl::detail {

// ---- backends and devices ------------------------------------------------------
inline backend::Backend &backend_of(Device device) { return backend::backend_for(device.type()); }

// The concrete device a request means (index -1 -> current device), after
// checking that it exists; otherwise DeviceError naming the request and the
// call site (placement-unguarded-cuda for CUDA).
Device resolve_device(Device requested, std::source_location loc);

// ---- checks --------------------------------------------------------------------
void check_defined(std::string_view op, std::string_view name, const Tensor &tensor);
// dim wrapped into [0, ndim) (a 0-dim tensor accepts 0 and -1); IndexError.
std::int64_t wrap_dim(std::string_view op, std::int64_t dim, std::int64_t ndim);
DimVector broadcast_sizes(std::string_view op, IntArrayRef a, IntArrayRef b);

// A 0-dim cpu tensor: may join an op on another device as an input.
inline bool is_cpu_scalar(const TensorImpl &impl) {
  return impl.device.is_cpu() && impl.sizes.empty();
}

[[noreturn, gnu::cold]] void mixed_device_error(std::string_view op, std::string_view first_name,
                                                Device first, std::string_view other_name,
                                                Device other);

struct NamedTensor {
  std::string_view name;
  const Tensor *tensor; // must be defined (checked: pl::Error naming it)
};

// ---- host-side stream order (core/host_sync.cpp) ---------------------------------
// The host's view of stream order, for placement-unsynchronized-read: a
// queued non_blocking download and every synchronisation take a tick from
// one counter, so "synchronised since the copy" is a comparison of ticks.
std::uint64_t next_sync_tick();
// The work queued on `stream` of `device` so far has finished
// (Stream::synchronize, a blocking copy on it).
void note_stream_synchronized(Device device, void *stream);
// The work queued on `stream` before `tick` has finished (Event::synchronize).
void note_stream_synchronized_up_to(Device device, void *stream, std::uint64_t tick);
// All work on `device` so far has finished (pl::synchronize).
void note_device_synchronized(Device device);
// A blocking copy on the current stream of a device: as a synchronisation of it.
void note_blocking_copy(Device device);
// The pinned storage of a non_blocking download queued now on the current
// stream of `from`, at loc.
void note_queued_download(StorageImpl &destination, Device from, std::source_location loc);
// A host read (`op`, at read_loc when known) of a storage: reported under the
// transfer guard when it is a non_blocking download's destination and
// nothing synchronised its stream since the copy was queued.
void check_synchronized_read(std::string_view op, const StorageImpl &storage,
                             std::optional<std::source_location> read_loc);
inline void guard_host_read(std::string_view op, const StorageImpl &storage,
                            std::optional<std::source_location> read_loc = std::nullopt) {
  if (storage.queued_download().has_value()) [[unlikely]]
    check_synchronized_read(op, storage, read_loc);
}

[[noreturn, gnu::cold]] void undefined_operand_error(std::string_view op, std::string_view name);
// The slow path of common_device: operands on more than one device.
[[gnu::cold]] Device mixed_common_device(ops::OpId op, ArrayRef<NamedTensor> operands,
                                         bool in_place);

// The device op runs on, by its Devices column in ops.def: all operands on
// one device, except that for a SameDevice op one 0-dim cpu tensor may join
// as an input (never as the first operand of the in-place form, its
// output). Throws DeviceMismatchError naming the op (its in-place method
// for the in-place form), both operands and both devices. Inline: the
// common case is one comparison per operand.
inline Device common_device(ops::OpId op, ArrayRef<NamedTensor> operands, bool in_place = false) {
  PL_ASSERT(!operands.empty());
  const TensorImpl *first = nullptr;
  bool same = true;
  for (const NamedTensor &operand : operands) {
    const TensorImpl *impl = operand.tensor->impl().get();
    if (impl == nullptr) [[unlikely]]
      undefined_operand_error(ops::name(op, in_place), operand.name);
    // Being an operand is a use, even of an op that then fails (as the
    // analyzer sees it): the tensor is no longer fresh from its factory.
    impl->storage->mark_used();
    guard_host_read(ops::name(op, in_place), *impl->storage);
    if (first == nullptr)
      first = impl;
    else if (impl->device != first->device)
      same = false;
  }
  if (same) [[likely]]
    return first->device;
  return mixed_common_device(op, operands, in_place);
}

// ---- tensors -------------------------------------------------------------------
DimVector contiguous_strides(IntArrayRef sizes);
// The element count of a new tensor of these sizes; ShapeError for bad
// sizes, AllocationError when its bytes overflow (naming device).
std::int64_t checked_numel(IntArrayRef sizes, ScalarType dtype, Device device);
// A new contiguous tensor on a resolved device; validates sizes.
Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, Device device);
// The device type whose pinned host memory pin_memory() and
// TensorOptions::pinned_memory() ask for: CUDA's when a CUDA device is
// present, as in libtorch, else sim's (so pinning works without a GPU).
DeviceType pinned_memory_accelerator();
// A new contiguous cpu tensor in host memory pinned by the backend of
// `accelerator` (core/pinned.cpp); DeviceError naming loc when there is no
// device of that type.
Tensor make_pinned_tensor(IntArrayRef sizes, ScalarType dtype, DeviceType accelerator,
                          std::source_location loc);
// DeviceError unless device is the cpu: only host memory can be pinned.
void check_pinnable(std::string_view op, Device device);
// `made`, pinned when options ask for pinned memory (a factory's last step).
Tensor pinned_if_requested(Tensor made, const TensorOptions &options, std::source_location loc);
Tensor make_view(const Tensor &base, DimVector sizes, DimVector strides,
                 std::int64_t storage_offset);
backend::TensorArg kernel_arg(const TensorImpl &impl);
inline backend::TensorArg kernel_arg(const Tensor &tensor) { return kernel_arg(*tensor.impl()); }
// The tensor seen with out_sizes: missing leading dims and size-1 dims get
// stride 0. The sizes must be broadcast-compatible (checked by the caller).
backend::TensorArg broadcast_arg(const TensorImpl &impl, IntArrayRef out_sizes);
backend::ScalarArg scalar_arg(const Scalar &value);
// The value of a 0-dim cpu tensor as a Scalar of its kind.
Scalar cpu_scalar_value(const TensorImpl &impl);
// `made` as a factory returns it: when options name no device it was made on
// the host, and its storage is marked fresh from the factory at loc (the
// transfer guard reports moving it before any use: placement-create-then-move).
// Call it last: filling the values counts as a use.
// Also makes it require grad when the options say so.
Tensor host_factory_result(Tensor made, const TensorOptions &options, std::source_location loc);
// `made` as a factory returns it: a leaf that requires grad when the options say so.
Tensor with_requires_grad(Tensor made, const TensorOptions &options);
// Sets every element (a new tensor's initial values: no version bump).
void fill_values(const TensorImpl &impl, const Scalar &value);
// A copy of t converted to dtype on its device (t itself when it has dtype).
Tensor cast(const Tensor &tensor, ScalarType dtype);
// self += other, recording no history (a step inside an op that records its
// own node, such as linear's bias).
void add_in_place_untracked(const Tensor &self, const Tensor &other);
// functors::EqualMask of two tensors on one device, broadcast, in their
// promoted dtype; records no history (the backward formulas' masks).
Tensor equal_mask(const Tensor &self, const Tensor &other);
// An operand as dtype, for the duration of one op: the tensor itself when
// it already has dtype (no copy and no reference-count traffic, the common
// case on the per-op hot path), else a converted copy that it owns.
class CastOperand {
public:
  CastOperand(const Tensor &tensor, ScalarType dtype) : original_(tensor.impl().get()) {
    if (original_->dtype != dtype)
      converted_ = cast(tensor, dtype);
  }
  const TensorImpl &impl() const { return converted_.defined() ? *converted_.impl() : *original_; }

private:
  const TensorImpl *original_;
  Tensor converted_;
};
// Whether the two views touch a common storage (conservatively: same storage).
inline bool shares_storage(const TensorImpl &a, const TensorImpl &b) {
  return a.storage == b.storage && a.numel > 0 && b.numel > 0;
}
inline bool same_view(const TensorImpl &a, const TensorImpl &b) {
  return a.storage == b.storage && a.storage_offset == b.storage_offset && a.sizes == b.sizes &&
         a.strides == b.strides && a.dtype == b.dtype;
}

// Moves/converts src to (device, dtype); the body of Tensor::to and friends.
Tensor convert(std::string_view op, const Tensor &src, Device target, ScalarType dtype,
               bool non_blocking, bool copy, std::source_location loc);

// ---- transfer guard hooks --------------------------------------------------------
// PL_TRANSFER_GUARD's value: "" (unset), allow, log or disallow; pl::Error
// for anything else.
TransferGuardLevel parse_transfer_guard_level(std::string_view text);
// A transfer of src to another device, converted to dtype, at loc
// (checked before the copy).
void guard_transfer(std::string_view op, const TensorImpl &src, Device target, ScalarType dtype,
                    std::source_location loc);

// placement-non-leaf-parameter: `use` (grad(), an optimizer) at use_loc met
// a non-leaf made by moving a requires-grad leaf from `from` to `to` at
// move_loc; `what` names the tensor ("the tensor", "parameters[2]").
void guard_non_leaf_parameter(std::string_view use, std::string_view what, Device from, Device to,
                              std::source_location move_loc, std::source_location use_loc);
// placement-unsynchronized-read: a host read (`op`, at read_loc when known)
// of the destination of the non_blocking copy from `from` queued at copy_loc,
// with no synchronisation in between (found by check_synchronized_read).
void guard_unsynchronized_read(std::string_view op, Device from, std::source_location copy_loc,
                               std::optional<std::source_location> read_loc);
// placement-pageable-non-blocking: a non_blocking copy to `target` at loc
// reads host memory that pl did not pin for it.
void guard_pageable_non_blocking(std::string_view op, Device target, std::source_location loc);


// ---- promotion -------------------------------------------------------------------
// PyTorch's result_type over tensors (0-dim ones rank below dimensioned ones)
// and C++ scalars (rank lowest, floating ones count as the default float).
struct ResultTypeState {
  std::optional<ScalarType> dimensioned, zero_dim, wrapped;
  void add(const TensorImpl &tensor);
  void add(const Scalar &scalar);
  ScalarType result() const;
};
// Whether a value of `from` may be written into a tensor of `to` by an
// in-place op (no float -> integral, no non-bool -> bool).
bool can_cast(ScalarType from, ScalarType to);

} // namespace pl::detail
