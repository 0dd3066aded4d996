// Tensor: a reference-counted handle to a strided view of a storage on one
// device, with the libtorch method API for the subset implemented. Copying a
// Tensor copies the handle (both see the same data), as in libtorch.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <source_location>
#include <tuple>

#include <placelint/rule_ids.h>

#include <pl/array_ref.h>
#include <pl/device.h>
#include <pl/error.h>
#include <pl/scalar.h>
#include <pl/scalar_type.h>
#include <pl/tensor_impl.h>
#include <pl/tensor_options.h>

// Tensor::to/cuda/cpu return the moved tensor; discarding it is the bug
// placement-discarded-transfer.
#define PL_NODISCARD_TRANSFER                                                                      \
  [[nodiscard(PL_RULE_ID_DiscardedTransfer                                                         \
              ": the result is the moved tensor; the tensor itself is not moved in place")]]

namespace pl {

class Tensor;
using TensorList = ArrayRef<Tensor>;

class Tensor {
public:
  using SourceLocation = std::source_location;

  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const noexcept { return impl_ != nullptr; }
  // The same handle (not merely equal values).
  bool is_same(const Tensor &other) const noexcept { return impl_ == other.impl_; }
  const std::shared_ptr<TensorImpl> &impl() const noexcept { return impl_; }

  // ---- metadata (throw pl::Error on an undefined tensor) --------------------
  IntArrayRef sizes() const { return impl_ref().sizes; }
  IntArrayRef strides() const { return impl_ref().strides; }
  std::int64_t size(std::int64_t dim) const;
  std::int64_t stride(std::int64_t dim) const;
  std::int64_t dim() const { return static_cast<std::int64_t>(impl_ref().sizes.size()); }
  std::int64_t ndimension() const { return dim(); }
  std::int64_t numel() const { return impl_ref().numel; }
  std::int64_t storage_offset() const { return impl_ref().storage_offset; }
  std::size_t element_size() const { return pl::element_size(dtype()); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * element_size(); }
  ScalarType dtype() const { return impl_ref().dtype; }
  ScalarType scalar_type() const { return dtype(); }
  Device device() const { return impl_ref().device; }
  TensorOptions options() const { return TensorOptions(device()).dtype(dtype()); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_sim() const { return device().is_sim(); }
  bool is_floating_point() const { return is_floating_type(dtype()); }
  bool is_contiguous() const;
  // Bumped by every in-place write to this tensor or any view of its storage.
  std::uint32_t _version() const { return impl_ref().storage->version(); }

  // Raw pointer to the first element, on the tensor's device (a device
  // pointer for non-cpu tensors). Throws DTypeError when T does not match.
  // The host reading through the pointer is a read (the transfer guard's
  // placement-unsynchronized-read names loc).
  template <class T> T *data_ptr(SourceLocation loc = SourceLocation::current()) const;
  void *data_ptr(SourceLocation loc = SourceLocation::current()) const;

  // The single element as T (converted), copying it to the host; a device
  // tensor counts as a device-to-host transfer at `loc` for the guard.
  template <class T> T item(SourceLocation loc = SourceLocation::current()) const;
  Scalar item(SourceLocation loc = SourceLocation::current()) const;

  // ---- transfers and conversions -------------------------------------------
  // Returns *this (no copy) when device and dtype already match, unless copy.
  PL_NODISCARD_TRANSFER Tensor to(TensorOptions options, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(Device device, ScalarType dtype, bool non_blocking = false,
                                  bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
                                  SourceLocation loc = SourceLocation::current()) const;
  // The current CUDA device; throws DeviceError (placement-unguarded-cuda)
  // when there is none.
  PL_NODISCARD_TRANSFER Tensor cuda(SourceLocation loc = SourceLocation::current()) const;
  PL_NODISCARD_TRANSFER Tensor cpu(SourceLocation loc = SourceLocation::current()) const;

  // A copy in page-locked (pinned) host memory, which an accelerator copies
  // from and to asynchronously (to(cuda, /*non_blocking=*/true) is then one
  // cudaMemcpyAsync); *this when already pinned. Only for cpu tensors. The
  // memory is pinned for `accelerator` (its type: cuda or sim), by default
  // for CUDA's where a CUDA device is present and sim's where none is; a
  // non_blocking copy to another accelerator's device is synchronous. As
  // libtorch's, whose `device` argument this is.
  [[nodiscard]] Tensor pin_memory(std::optional<Device> accelerator = std::nullopt,
                                  SourceLocation loc = SourceLocation::current()) const;
  bool is_pinned() const { return impl_ref().storage->is_pinned(); }

  // Copies src (broadcast to this shape, cast to this dtype) into this
  // tensor; src may be on another device (an explicit transfer).
  Tensor &copy_(const Tensor &src, bool non_blocking = false,
                SourceLocation loc = SourceLocation::current()) const;
  // Makes this handle's view refer to other's data (Module::to uses it so
  // that every handle of a parameter sees it moved).
  void set_data(const Tensor &other) const;

  [[nodiscard]] Tensor clone() const;
  [[nodiscard]] Tensor contiguous() const;

  // ---- views (share storage) -----------------------------------------------
  Tensor view(IntArrayRef sizes) const;
  Tensor reshape(IntArrayRef sizes) const;
  Tensor transpose(std::int64_t dim0, std::int64_t dim1) const;
  Tensor t() const;
  Tensor narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const;
  Tensor select(std::int64_t dim, std::int64_t index) const;
  Tensor operator[](std::int64_t index) const { return select(0, index); }
  Tensor unsqueeze(std::int64_t dim) const;
  Tensor squeeze(std::int64_t dim) const;
  Tensor flatten(std::int64_t start_dim = 0, std::int64_t end_dim = -1) const;

  // ---- elementwise ----------------------------------------------------------
  // One method and its in-place form per elementwise op of
  // <placelint/ops.def>: for a PL_BINARY_OP such as add,
  // `Tensor add(const Tensor &other) const`, `add(const Scalar &)`,
  // `Tensor &add_(const Tensor &) const` and `add_(const Scalar &)`; for a
  // PL_UNARY_OP such as relu, `Tensor relu() const` and `Tensor &relu_() const`.
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, ...)                                   \
  Tensor Method(const Tensor &other) const;                                                        \
  Tensor Method(const Scalar &other) const;                                                        \
  Tensor &InPlace(const Tensor &other) const;                                                      \
  Tensor &InPlace(const Scalar &other) const;
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, ...)                                    \
  Tensor Method() const;                                                                           \
  Tensor &InPlace() const;
#include <placelint/ops.def>

  Tensor &operator+=(const Tensor &other) const { return add_(other); }
  Tensor &operator+=(const Scalar &other) const { return add_(other); }
  Tensor &operator-=(const Tensor &other) const { return sub_(other); }
  Tensor &operator-=(const Scalar &other) const { return sub_(other); }
  Tensor &operator*=(const Tensor &other) const { return mul_(other); }
  Tensor &operator*=(const Scalar &other) const { return mul_(other); }
  Tensor &operator/=(const Tensor &other) const { return div_(other); }
  Tensor &operator/=(const Scalar &other) const { return div_(other); }
  Tensor operator-() const { return neg(); }

  Tensor &fill_(const Scalar &value) const;
  Tensor &zero_() const { return fill_(0); }

  // ---- reductions -------------------------------------------------------------
  // An empty dim list reduces over every dimension.
  Tensor sum() const { return sum(IntArrayRef{}, false); }
  Tensor sum(IntArrayRef dims, bool keepdim = false) const;
  Tensor mean() const { return mean(IntArrayRef{}, false); }
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(std::int64_t dim, bool keepdim = false) const;
  Tensor argmax(std::optional<std::int64_t> dim = std::nullopt, bool keepdim = false) const;

  // ---- linear algebra ---------------------------------------------------------
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &mat2) const;

  // ---- autograd (see <pl/autograd.h> for what it covers) ---------------------
  // Whether gradients flow to this tensor: a leaf that asked for them, or the
  // result of an op on such tensors recorded while grad mode was on.
  bool requires_grad() const;
  // Leaves only; floating dtypes only. Returns *this.
  Tensor &requires_grad_(bool requires_grad = true) const;
  Tensor &set_requires_grad(bool requires_grad) const { return requires_grad_(requires_grad); }
  // A leaf has no grad_fn: made by a factory or the user, not by a recorded op.
  bool is_leaf() const;
  // Which output of its grad_fn this tensor is (0 for a leaf).
  std::int64_t output_nr() const;
  // The gradient accumulated by backward(): defined for leaves that require
  // grad and for tensors that retain_grad(). Reading it on a non-leaf made
  // by moving a requires-grad leaf (`w = leaf.to(device)`) is the bug
  // placement-non-leaf-parameter: the transfer guard reports it, naming the
  // move.
  const Tensor &grad(SourceLocation loc = SourceLocation::current()) const;
  // The gradient slot itself, to assign or modify (optimizers, zero_grad).
  Tensor &mutable_grad() const;
  // Makes backward() also fill grad() of this non-leaf.
  void retain_grad() const;
  bool retains_grad() const;
  // Same data and version counter, outside the graph: no grad_fn, no grad.
  Tensor detach() const;
  // Computes the gradients of this tensor with respect to the graph's
  // leaves and adds them to their grad(). Without `gradient`, the tensor
  // must have one element (gradient 1). The graph's saved tensors are freed
  // unless retain_graph; create_graph (higher-order gradients) is not
  // supported and throws.
  void backward(const Tensor &gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;

  // Same device, dtype, sizes and values.
  bool equal(const Tensor &other) const;
  bool allclose(const Tensor &other, double rtol = 1e-05, double atol = 1e-08) const;

private:
  const TensorImpl &impl_ref() const {
    PL_CHECK(impl_ != nullptr, Error, "the tensor is undefined (default-constructed)");
    return *impl_;
  }
  Tensor &self_ref() const { return const_cast<Tensor &>(*this); }
  void *typed_data_ptr(ScalarType expected, SourceLocation loc) const;
  void read_item(void *dst, ScalarType as, SourceLocation loc) const;

  std::shared_ptr<TensorImpl> impl_;
};

template <class T> T *Tensor::data_ptr(SourceLocation loc) const {
  return static_cast<T *>(typed_data_ptr(ScalarTypeOf<T>::value, loc));
}

template <class T> T Tensor::item(SourceLocation loc) const {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> ||
                std::is_same_v<T, float> || std::is_same_v<T, double>) {
    T value;
    read_item(&value, ScalarTypeOf<T>::value, loc);
    return value;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(item<double>(loc));
  } else {
    static_assert(std::is_integral_v<T>, "item<T>: T must be an arithmetic type");
    return static_cast<T>(item<std::int64_t>(loc));
  }
}

// libtorch's printing: the values, then "[ CPUFloatType{2,3} ]"; non-cpu
// tensors also name their device.
std::ostream &operator<<(std::ostream &os, const Tensor &tensor);

} // namespace pl
