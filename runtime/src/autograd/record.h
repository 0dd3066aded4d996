// The hooks through which the front end's ops record their history. Each op
// computes its result as before, then tests is_tracked() on its operands:
// for plain tensors that is one null-pointer test per operand, and nothing
// else runs. The record_* functions check grad mode and requires_grad.
#pragma once

#include <cstdint>
#include <functional>
#include <source_location>

#include <pl/tensor.h>

#include "core/backend.h"

namespace pl::autograd {

inline bool is_tracked(const Tensor &tensor) noexcept {
  return tensor.impl() != nullptr && tensor.impl()->autograd_meta != nullptr;
}
inline bool is_tracked(const Tensor &a, const Tensor &b) noexcept {
  return is_tracked(a) || is_tracked(b);
}
bool is_tracked(TensorList tensors) noexcept;

// ---- elementwise ----------------------------------------------------------------
void record_binary(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                   const Tensor &other);
void record_binary_scalar(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                          const Scalar &other, bool scalar_is_lhs);
void record_unary(backend::UnaryOp op, const Tensor &out, const Tensor &self);
void record_clone(const Tensor &out, const Tensor &self);

// In-place ops on a tracked operand: `forward` does the write; the hook
// refuses a leaf that requires grad (and a view of one), saves what the
// formula needs before the write, and then makes `self` the output of the
// new node. Returns self.
Tensor &binary_in_place(backend::BinaryOp op, const Tensor &self, const Tensor &other,
                        const std::function<void()> &forward);
Tensor &binary_scalar_in_place(backend::BinaryOp op, const Tensor &self, const Scalar &other,
                               const std::function<void()> &forward);
Tensor &unary_in_place(backend::UnaryOp op, const Tensor &self,
                       const std::function<void()> &forward);
Tensor &fill_in_place(const Tensor &self, const std::function<void()> &forward);
Tensor &copy_in_place(const Tensor &self, const Tensor &src, const std::function<void()> &forward);

// ---- reductions -----------------------------------------------------------------
void record_sum(const Tensor &out, const Tensor &self, IntArrayRef dims);
void record_mean(const Tensor &out, const Tensor &self, IntArrayRef dims);
// max() and the values of max(dim): the gradient goes to the maximal
// elements (split evenly between ties).
void record_max(const Tensor &values, const Tensor &self, std::optional<std::int64_t> dim);

// ---- linear algebra ---------------------------------------------------------------
void record_matmul(const Tensor &out, const Tensor &self, const Tensor &other);
void record_linear(const Tensor &out, const Tensor &input, const Tensor &weight,
                   const Tensor &bias);

// ---- views --------------------------------------------------------------------------
// view, reshape, flatten, squeeze, unsqueeze, t of a vector: same elements,
// other sizes.
void record_reshape(const Tensor &out, const Tensor &self);
void record_transpose(const Tensor &out, const Tensor &self, std::int64_t dim0, std::int64_t dim1);
void record_narrow(const Tensor &out, const Tensor &self, std::int64_t dim, std::int64_t start);
void record_select(const Tensor &out, const Tensor &self, std::int64_t dim, std::int64_t index);

// ---- joins and transfers -----------------------------------------------------------
void record_cat(const Tensor &out, TensorList tensors, std::int64_t dim);
// to/cuda/cpu (device and/or dtype): the gradient goes back to the source's
// device and dtype. A move of a requires-grad leaf remembers `loc` for
// placement-non-leaf-parameter.
void record_to(const Tensor &out, const Tensor &self, std::source_location loc);

} // namespace pl::autograd
