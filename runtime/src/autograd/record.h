// Autograd's implementation of the core's hooks (core/autograd_hooks.h,
// which documents each one): each member is defined beside the backward
// formula of its op family in functions/, and recording.cpp registers the
// one instance when the library loads. The members check grad mode and
// requires_grad.
#pragma once

#include "core/autograd_hooks.h"

namespace pl::autograd {

class RecordingHooks final : public detail::AutogradHooks {
public:
  // functions/elementwise_backward.cpp
  void record_binary(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                     const Tensor &other) const override;
  void record_binary_scalar(backend::BinaryOp op, const Tensor &out, const Tensor &self,
                            const Scalar &other, bool scalar_is_lhs) const override;
  void record_unary(backend::UnaryOp op, const Tensor &out, const Tensor &self) const override;
  void record_clone(const Tensor &out, const Tensor &self) const override;
  Tensor &binary_in_place(backend::BinaryOp op, const Tensor &self, const Tensor &other,
                          const std::function<void()> &forward) const override;
  Tensor &binary_scalar_in_place(backend::BinaryOp op, const Tensor &self, const Scalar &other,
                                 const std::function<void()> &forward) const override;
  Tensor &unary_in_place(backend::UnaryOp op, const Tensor &self,
                         const std::function<void()> &forward) const override;
  Tensor &fill_in_place(const Tensor &self, const std::function<void()> &forward) const override;
  Tensor &copy_in_place(const Tensor &self, const Tensor &src, std::source_location loc,
                        const std::function<void()> &forward) const override;

  // functions/reduction_backward.cpp
  void record_sum(const Tensor &out, const Tensor &self, IntArrayRef dims) const override;
  void record_mean(const Tensor &out, const Tensor &self, IntArrayRef dims) const override;
  void record_max(const Tensor &value, const Tensor &self) const override;
  void record_max_dim(const Tensor &values, const Tensor &indices, const Tensor &self,
                      std::int64_t dim) const override;

  // functions/linalg_backward.cpp
  void record_matmul(const Tensor &out, const Tensor &self, const Tensor &other) const override;
  void record_linear(const Tensor &out, const Tensor &input, const Tensor &weight,
                     const Tensor &bias) const override;

  // functions/view_backward.cpp
  void record_reshape(const Tensor &out, const Tensor &self) const override;
  void record_transpose(const Tensor &out, const Tensor &self, std::int64_t dim0,
                        std::int64_t dim1) const override;
  void record_narrow(const Tensor &out, const Tensor &self, std::int64_t dim,
                     std::int64_t start) const override;
  void record_select(const Tensor &out, const Tensor &self, std::int64_t dim,
                     std::int64_t index) const override;

  // functions/join_backward.cpp, functions/transfer_backward.cpp
  void record_cat(const Tensor &out, TensorList tensors, std::int64_t dim) const override;
  void record_to(const Tensor &out, const Tensor &self, std::source_location loc) const override;
};

} // namespace pl::autograd
