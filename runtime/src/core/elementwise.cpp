// Elementwise operations, one per PL_UNARY_OP and PL_BINARY_OP entry of
// <placelint/ops.def> (binary ops with tensors and scalars, broadcasting,
// type promotion; unary ops; in-place forms), and fill_.
#include <pl/ops.h>
#include <placelint/rule_ids.h>

#include "core/autograd_hooks.h"
#include "core/internal.h"
#include "core/op_catalogue.h"

namespace pl {
namespace {

using backend::BinaryOp;
using backend::UnaryOp;

// The op's name in messages (ops.def's method or in-place method).
template <class Op> const char *op_name(Op op, bool in_place) {
  return in_place ? ops::info(op).in_place : ops::info(op).name;
}

// The dtype an elementwise op computes in, from its operands' promoted
// type: ops.def's DTypes (a bool operand of a NotBool op is an error; a
// Floating op computes integers as floats, as true division does).
ScalarType compute_type(std::string_view name, const ops::ElementwiseOp &op, ScalarType promoted) {
  PL_CHECK(!(op.dtypes == ops::DTypes::NotBool && promoted == ScalarType::Bool), DTypeError, name,
           ": ", op.bool_error);
  if (op.dtypes == ops::DTypes::Floating && !is_floating_type(promoted))
    return kDefaultFloat;
  return promoted;
}

void check_in_place_cast(std::string_view name, ScalarType result, ScalarType self) {
  PL_CHECK(detail::can_cast(result, self), DTypeError, name, ": result type ", result,
           " can't be cast to the desired output type ", self);
}

// checked_as: the op whose device rule the operands are checked by; a
// kernel that no API exposes (EqualMask) has no op of its own.
Tensor binary_out_of_place(BinaryOp op, const Tensor &self, const Tensor &other, ops::OpId checked_as) {
  const char *name = op_name(op, false);
  const Device device = detail::common_device(checked_as, {{"self", &self}, {"other", &other}});
  const TensorImpl &a = *self.impl();
  const TensorImpl &b = *other.impl();
  detail::ResultTypeState promotion;
  promotion.add(a);
  promotion.add(b);
  const ScalarType dtype = compute_type(name, ops::info(op), promotion.result());
  const auto sizes = detail::broadcast_sizes(name, a.sizes, b.sizes);
  Tensor out = detail::make_tensor(sizes, dtype, device);
  if (out.numel() == 0)
    return out;
  backend::Backend &backend = detail::backend_of(device);
  // A cpu scalar joining an op on another device is passed by value.
  if (a.device != device || b.device != device) {
    const bool scalar_is_lhs = a.device != device;
    const Tensor &tensor = scalar_is_lhs ? other : self;
    const Scalar value = detail::cpu_scalar_value(scalar_is_lhs ? a : b);
    backend.binary_scalar(device.index(), op, detail::kernel_arg(out),
                          detail::broadcast_arg(detail::CastOperand(tensor, dtype).impl(), sizes),
                          detail::scalar_arg(value), scalar_is_lhs);
    return out;
  }
  backend.binary(device.index(), op, detail::kernel_arg(out),
                 detail::broadcast_arg(detail::CastOperand(self, dtype).impl(), sizes),
                 detail::broadcast_arg(detail::CastOperand(other, dtype).impl(), sizes));
  return out;
}

Tensor binary_with_scalar(BinaryOp op, const Tensor &self, const Scalar &other,
                          bool scalar_is_lhs) {
  const char *name = op_name(op, false);
  detail::check_defined(name, "self", self);
  const TensorImpl &a = *self.impl();
  detail::ResultTypeState promotion;
  promotion.add(a);
  promotion.add(other);
  const ScalarType dtype = compute_type(name, ops::info(op), promotion.result());
  Tensor out = detail::make_tensor(a.sizes, dtype, a.device);
  if (out.numel() == 0)
    return out;
  detail::backend_of(a.device).binary_scalar(a.device.index(), op, detail::kernel_arg(out),
                                             detail::kernel_arg(detail::CastOperand(self, dtype).impl()),
                                             detail::scalar_arg(other), scalar_is_lhs);
  return out;
}

Tensor &binary_in_place(BinaryOp op, const Tensor &self, const Tensor &other) {
  const char *name = op_name(op, true);
  const Device device =
      detail::common_device(ops::id(op), {{"self", &self}, {"other", &other}}, /*in_place=*/true);
  const TensorImpl &a = *self.impl();
  const TensorImpl &b = *other.impl();
  detail::ResultTypeState promotion;
  promotion.add(a);
  promotion.add(b);
  const ScalarType dtype = compute_type(name, ops::info(op), promotion.result());
  check_in_place_cast(name, dtype, a.dtype);
  const auto sizes = detail::broadcast_sizes(name, a.sizes, b.sizes);
  PL_CHECK(IntArrayRef(sizes) == a.sizes, ShapeError, name, ": output with shape ", a.sizes,
           " doesn't match the broadcast shape ", IntArrayRef(sizes));
  if (a.numel > 0) {
    backend::Backend &backend = detail::backend_of(device);
    if (dtype != a.dtype) {
      // Compute in the wider type, then write back (float += double).
      self.copy_(binary_out_of_place(op, self, other, ops::id(op)));
      return const_cast<Tensor &>(self);
    }
    const backend::TensorArg out = detail::kernel_arg(a);
    if (b.device != device) {
      backend.binary_scalar(device.index(), op, out, out,
                            detail::scalar_arg(detail::cpu_scalar_value(b)), false);
    } else {
      // Never read memory this op writes, except the exact same elements.
      Tensor operand =
          detail::shares_storage(a, b) && !detail::same_view(a, b) ? other.clone() : other;
      operand = detail::cast(operand, dtype);
      backend.binary(device.index(), op, out, out, detail::broadcast_arg(*operand.impl(), sizes));
    }
  }
  a.storage->bump_version();
  return const_cast<Tensor &>(self);
}

Tensor &binary_in_place(BinaryOp op, const Tensor &self, const Scalar &other) {
  const char *name = op_name(op, true);
  detail::check_defined(name, "self", self);
  const TensorImpl &a = *self.impl();
  detail::ResultTypeState promotion;
  promotion.add(a);
  promotion.add(other);
  const ScalarType dtype = compute_type(name, ops::info(op), promotion.result());
  check_in_place_cast(name, dtype, a.dtype);
  if (a.numel > 0) {
    if (dtype != a.dtype) {
      self.copy_(binary_with_scalar(op, self, other, false));
      return const_cast<Tensor &>(self);
    }
    const backend::TensorArg out = detail::kernel_arg(a);
    detail::backend_of(a.device).binary_scalar(a.device.index(), op, out, out,
                                               detail::scalar_arg(other), false);
  }
  a.storage->bump_version();
  return const_cast<Tensor &>(self);
}

Tensor unary_out_of_place(UnaryOp op, const Tensor &self) {
  const char *name = op_name(op, false);
  detail::check_defined(name, "self", self);
  const TensorImpl &a = *self.impl();
  const ScalarType dtype = compute_type(name, ops::info(op), a.dtype);
  Tensor out = detail::make_tensor(a.sizes, dtype, a.device);
  if (out.numel() > 0)
    detail::backend_of(a.device).unary(a.device.index(), op, detail::kernel_arg(out),
                                       detail::kernel_arg(detail::CastOperand(self, dtype).impl()));
  return out;
}

Tensor &unary_in_place(UnaryOp op, const Tensor &self) {
  const char *name = op_name(op, true);
  detail::check_defined(name, "self", self);
  const TensorImpl &a = *self.impl();
  check_in_place_cast(name, compute_type(name, ops::info(op), a.dtype), a.dtype);
  if (a.numel > 0) {
    const backend::TensorArg arg = detail::kernel_arg(a);
    detail::backend_of(a.device).unary(a.device.index(), op, arg, arg);
  }
  a.storage->bump_version();
  return const_cast<Tensor &>(self);
}

// The public ops: the computation above, then the autograd hooks, which
// cost one pointer test per operand for tensors outside autograd.
Tensor tracked_binary(BinaryOp op, const Tensor &self, const Tensor &other) {
  Tensor out = binary_out_of_place(op, self, other, ops::id(op));
  if (detail::is_tracked(self, other)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::id(op), .inputs = {self, other}, .outputs = out});
  return out;
}

Tensor tracked_binary_scalar(BinaryOp op, const Tensor &self, const Scalar &other,
                             bool scalar_is_lhs) {
  Tensor out = binary_with_scalar(op, self, other, scalar_is_lhs);
  if (detail::is_tracked(self)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::id(op),
                                     .inputs = self,
                                     .outputs = out,
                                     .scalar = &other,
                                     .scalar_is_lhs = scalar_is_lhs});
  return out;
}

Tensor &tracked_binary_in_place(BinaryOp op, const Tensor &self, const Tensor &other) {
  if (detail::is_tracked(self, other)) [[unlikely]] {
    detail::autograd_hooks().record_in_place({.op = ops::id(op), .inputs = {self, other}},
                                             [&] { binary_in_place(op, self, other); });
    return const_cast<Tensor &>(self);
  }
  return binary_in_place(op, self, other);
}

Tensor &tracked_binary_in_place(BinaryOp op, const Tensor &self, const Scalar &other) {
  if (detail::is_tracked(self)) [[unlikely]] {
    detail::autograd_hooks().record_in_place({.op = ops::id(op), .inputs = self, .scalar = &other},
                                             [&] { binary_in_place(op, self, other); });
    return const_cast<Tensor &>(self);
  }
  return binary_in_place(op, self, other);
}

Tensor tracked_unary(UnaryOp op, const Tensor &self) {
  Tensor out = unary_out_of_place(op, self);
  if (detail::is_tracked(self)) [[unlikely]]
    detail::autograd_hooks().record({.op = ops::id(op), .inputs = self, .outputs = out});
  return out;
}

Tensor &tracked_unary_in_place(UnaryOp op, const Tensor &self) {
  if (detail::is_tracked(self)) [[unlikely]] {
    detail::autograd_hooks().record_in_place({.op = ops::id(op), .inputs = self},
                                             [&] { unary_in_place(op, self); });
    return const_cast<Tensor &>(self);
  }
  return unary_in_place(op, self);
}

} // namespace

// The methods of the elementwise ops, one set per entry of ops.def.
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, ...)                                   \
  Tensor Tensor::Method(const Tensor &other) const {                                               \
    return tracked_binary(BinaryOp::Name, *this, other);                                           \
  }                                                                                                \
  Tensor Tensor::Method(const Scalar &other) const {                                               \
    return tracked_binary_scalar(BinaryOp::Name, *this, other, false);                             \
  }                                                                                                \
  Tensor &Tensor::InPlace(const Tensor &other) const {                                             \
    return tracked_binary_in_place(BinaryOp::Name, *this, other);                                  \
  }                                                                                                \
  Tensor &Tensor::InPlace(const Scalar &other) const {                                             \
    return tracked_binary_in_place(BinaryOp::Name, *this, other);                                  \
  }
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, ...)                                    \
  Tensor Tensor::Method() const { return tracked_unary(UnaryOp::Name, *this); }                    \
  Tensor &Tensor::InPlace() const { return tracked_unary_in_place(UnaryOp::Name, *this); }
#include <placelint/ops.def>

Tensor rsub(const Tensor &self, const Scalar &other) {
  return tracked_binary_scalar(BinaryOp::Sub, self, other, true);
}
Tensor rdiv(const Tensor &self, const Scalar &other) {
  return tracked_binary_scalar(BinaryOp::Div, self, other, true);
}

namespace detail {

void add_in_place_untracked(const Tensor &self, const Tensor &other) {
  binary_in_place(BinaryOp::Add, self, other);
}

Tensor equal_mask(const Tensor &self, const Tensor &other) {
  return binary_out_of_place(BinaryOp::EqualMask, self, other, ops::OpId::Equal);
}

void fill_values(const TensorImpl &impl, const Scalar &value) {
  if (impl.numel == 0)
    return;
  backend::ScalarArg arg = scalar_arg(value);
  if (impl.dtype == ScalarType::Bool)
    arg.integral = value.toBool() ? 1 : 0;
  backend_of(impl.device).fill(impl.device.index(), kernel_arg(impl), arg);
}

} // namespace detail

Tensor &Tensor::fill_(const Scalar &value) const {
  const TensorImpl &impl = impl_ref();
  const auto fill = [&] {
    detail::fill_values(impl, value);
    impl.storage->bump_version();
  };
  if (detail::is_tracked(*this)) [[unlikely]]
    detail::autograd_hooks().record_in_place({.op = ops::OpId::Fill, .inputs = *this}, fill);
  else
    fill();
  return self_ref();
}

} // namespace pl
