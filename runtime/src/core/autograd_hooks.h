// The autograd hooks: how the front end's ops have their history recorded
// without knowing autograd. The core owns this interface; runtime/src/autograd
// implements it and registers the implementation when the library loads
// (after PyTorch's VariableHooksInterface, which keeps ATen free of
// autograd). Each op computes its result, then tests is_tracked() on its
// operands: for tensors outside autograd that is one null-pointer test per
// operand, and no hook runs. The hooks check grad mode and requires_grad.
#pragma once

#include <cstdint>
#include <functional>
#include <source_location>

#include <pl/tensor.h>

#include "core/backend.h"

namespace pl::detail {

// Whether the tensor takes part in autograd (autograd gave it its state).
inline bool is_tracked(const Tensor &tensor) noexcept {
  return tensor.impl() != nullptr && tensor.impl()->autograd_meta != nullptr;
}
inline bool is_tracked(const Tensor &a, const Tensor &b) noexcept {
  return is_tracked(a) || is_tracked(b);
}
bool is_tracked(TensorList tensors) noexcept;

class AutogradHooks {
public:
  // ---- elementwise ----------------------------------------------------------------
  virtual void record_binary(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                             const Tensor &other) const = 0;
  virtual void record_binary_scalar(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                                    const Scalar &other, bool scalar_is_lhs) const = 0;
  virtual void record_unary(backend::UnaryOp op, const Tensor &out, const Tensor &self) const = 0;
  virtual void record_clone(const Tensor &out, const Tensor &self) const = 0;

  // In-place ops on a tracked operand: `forward` does the write; the hook
  // refuses a leaf that requires grad (and a view of one), saves what the
  // formula needs before the write, and then makes `self` the output of the
  // new node. Returns self.
  virtual Tensor &binary_in_place(backend::BinaryOp op, const Tensor &self, const Tensor &other,
                                  const std::function<void()> &forward) const = 0;
  virtual Tensor &binary_scalar_in_place(backend::BinaryOp op, const Tensor &self,
                                         const Scalar &other,
                                         const std::function<void()> &forward) const = 0;
  virtual Tensor &unary_in_place(backend::UnaryOp op, const Tensor &self,
                                 const std::function<void()> &forward) const = 0;
  virtual Tensor &fill_in_place(const Tensor &self, const std::function<void()> &forward) const = 0;
  // `loc`: copy_'s caller, named by the transfer guard when src's gradient
  // moves back to src's device.
  virtual Tensor &copy_in_place(const Tensor &self, const Tensor &src, std::source_location loc,
                                const std::function<void()> &forward) const = 0;

  // ---- reductions -----------------------------------------------------------------
  virtual void record_sum(const Tensor &out, const Tensor &self, IntArrayRef dims) const = 0;
  virtual void record_mean(const Tensor &out, const Tensor &self, IntArrayRef dims) const = 0;
  // max(): the gradient goes to the maximal elements, split evenly between
  // ties (as PyTorch's evenly_distribute_backward).
  virtual void record_max(const Tensor &value, const Tensor &self) const = 0;
  // The values of max(dim): the gradient goes to the element `indices` names.
  virtual void record_max_dim(const Tensor &values, const Tensor &indices, const Tensor &self,
                              std::int64_t dim) const = 0;

  // ---- linear algebra ---------------------------------------------------------------
  virtual void record_matmul(const Tensor &out, const Tensor &self, const Tensor &other) const = 0;
  virtual void record_linear(const Tensor &out, const Tensor &input, const Tensor &weight,
                             const Tensor &bias) const = 0;

  // ---- views ------------------------------------------------------------------------
  // view, reshape, flatten, squeeze, unsqueeze, t of a vector: same elements,
  // other sizes.
  virtual void record_reshape(const Tensor &out, const Tensor &self) const = 0;
  virtual void record_transpose(const Tensor &out, const Tensor &self, std::int64_t dim0,
                                std::int64_t dim1) const = 0;
  virtual void record_narrow(const Tensor &out, const Tensor &self, std::int64_t dim,
                             std::int64_t start) const = 0;
  virtual void record_select(const Tensor &out, const Tensor &self, std::int64_t dim,
                             std::int64_t index) const = 0;

  // ---- joins and transfers -----------------------------------------------------------
  virtual void record_cat(const Tensor &out, TensorList tensors, std::int64_t dim) const = 0;
  // to/cuda/cpu (device and/or dtype): the gradient goes back to the source's
  // device and dtype. A move of a requires-grad leaf remembers `loc` for
  // placement-non-leaf-parameter.
  virtual void record_to(const Tensor &out, const Tensor &self, std::source_location loc) const = 0;

protected:
  ~AutogradHooks() = default;
};

// The hooks autograd registered. Called only for tracked operands, which
// exist only once autograd has run, so they are always registered by then.
const AutogradHooks &autograd_hooks() noexcept;
// Autograd's registration, once, while the library loads.
void set_autograd_hooks(const AutogradHooks &hooks) noexcept;

} // namespace pl::detail
