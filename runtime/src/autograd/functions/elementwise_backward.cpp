// Backward formulas of the elementwise ops of ops.def (binary ops with
// tensors and scalars, unary ops), of clone and of the in-place forms, fill_
// and copy_. Broadcasting, dtype and device are undone by the engine. The node
// names and what a unary op saves come from <placelint/ops.def>.
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

using backend::BinaryOp;
using backend::UnaryOp;

// self (op) other, out of place or in place. For in-place ops `self` is
// the value before the write (saved only when other's gradient needs it)
// and `result` the value after.
struct BinaryBackward final : Node {
  explicit BinaryBackward(BinaryOp op) : op(op) {}
  const char *name() const override { return ops::info(op).backward; }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    const bool self_needed = next_edges[0].is_valid();
    const bool other_needed = next_edges[1].is_valid();
    Tensor grad_self, grad_other;
    switch (op) {
    case BinaryOp::Add:
      grad_self = grad;
      grad_other = grad;
      break;
    case BinaryOp::Sub:
      grad_self = grad;
      if (other_needed)
        grad_other = -grad;
      break;
    case BinaryOp::Mul:
      if (self_needed)
        grad_self = grad * other.unpack(name());
      if (other_needed)
        grad_other = grad * self.unpack(name());
      break;
    case BinaryOp::Div: {
      const Tensor divisor = other.unpack(name());
      if (self_needed)
        grad_self = grad / divisor;
      if (other_needed)
        grad_other = -grad * result.unpack(name()) / divisor;
      break;
    }
    case BinaryOp::EqualMask:
      break; // records no history
    }
    return {grad_self, grad_other};
  }
  void release_saved() override {
    self.release();
    other.release();
    result.release();
  }
  BinaryOp op;
  SavedTensor self, other, result;
};

// self (op) c, or c (op) self when scalar_is_lhs.
struct BinaryScalarBackward final : Node {
  BinaryScalarBackward(BinaryOp op, const Scalar &scalar, bool scalar_is_lhs)
      : op(op), scalar(scalar), scalar_is_lhs(scalar_is_lhs) {}
  const char *name() const override { return ops::backward_name(ops::OpId::Rsub); }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    switch (op) {
    case BinaryOp::Add:
      return {grad};
    case BinaryOp::Sub:
      return {scalar_is_lhs ? -grad : grad};
    case BinaryOp::Mul:
      return {grad * scalar};
    case BinaryOp::Div:
      // d(c / x) = -c / x^2 = -(c / x) / x
      if (scalar_is_lhs)
        return {-grad * result.unpack(name()) / self.unpack(name())};
      return {grad / scalar};
    case BinaryOp::EqualMask:
      break; // records no history
    }
    return {};
  }
  void release_saved() override {
    self.release();
    result.release();
  }
  BinaryOp op;
  Scalar scalar;
  bool scalar_is_lhs;
  SavedTensor self, result;
};

// The gradient of a unary op's input, from its output's gradient and the
// tensor ops.def says the op saves (`saved`: its input, its result, or
// undefined for Saves Nothing).
Tensor unary_gradient(UnaryOp op, const Tensor &grad, const Tensor &saved) {
  switch (op) {
  case UnaryOp::Neg:
    return -grad;
  case UnaryOp::Relu:
    return grad * positive_mask(saved);
  case UnaryOp::Exp:
    return grad * saved;
  case UnaryOp::Log:
    return grad / saved;
  case UnaryOp::Sqrt:
    return grad / (saved * 2);
  }
  PL_ASSERT(false && "unary op without a backward formula");
  return {};
}

// For in-place forms, a saved input is the value before the write (log_) and
// a saved result the value after (relu_, exp_).
struct UnaryBackward final : Node {
  explicit UnaryBackward(UnaryOp op) : op(op) {}
  const char *name() const override { return ops::info(op).backward; }
  variable_list apply(variable_list &&grads) override {
    const bool reads_saved = ops::info(op).saves != ops::Saves::Nothing;
    return {unary_gradient(op, grads[0], reads_saved ? saved.unpack(name()) : Tensor())};
  }
  void release_saved() override { saved.release(); }
  UnaryOp op;
  SavedTensor saved;
};

// clone, and copy_ for its source: the gradient passes through (the engine
// moves it back to the source's device and dtype).
struct PassThroughBackward final : Node {
  explicit PassThroughBackward(const char *kind) : kind(kind) {}
  const char *name() const override { return kind; }
  variable_list apply(variable_list &&grads) override { return {grads[0]}; }
  const char *kind;
};

// fill_ and copy_: the old value of self gets no gradient; copy_'s source
// gets it all.
struct OverwriteBackward final : Node {
  explicit OverwriteBackward(const char *kind) : kind(kind) {}
  const char *name() const override { return kind; }
  variable_list apply(variable_list &&grads) override {
    return next_edges.size() == 2 ? variable_list{Tensor(), grads[0]} : variable_list{Tensor()};
  }
  const char *kind;
};

// self (op) other.
void record_binary_tensors(BinaryOp op, const OpCall &call) {
  const Tensor &self = call.inputs[0];
  const Tensor &other = call.inputs[1];
  const Tensor &out = call.outputs[0];
  if (!should_record({&self, &other}))
    return;
  auto node = std::make_shared<BinaryBackward>(op);
  connect(*node, {&self, &other});
  if (op == BinaryOp::Mul) {
    if (other.requires_grad())
      node->self = SavedTensor(self);
    if (self.requires_grad())
      node->other = SavedTensor(other);
  } else if (op == BinaryOp::Div) {
    node->other = SavedTensor(other);
    if (other.requires_grad())
      node->result = SavedTensor(out);
  }
  set_history(out, node);
}

// self (op) scalar, or scalar (op) self.
void record_binary_scalar(BinaryOp op, const OpCall &call) {
  const Tensor &self = call.inputs[0];
  const Tensor &out = call.outputs[0];
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<BinaryScalarBackward>(op, *call.scalar, call.scalar_is_lhs);
  connect(*node, {&self});
  if (op == BinaryOp::Div && call.scalar_is_lhs) {
    node->self = SavedTensor(self);
    node->result = SavedTensor(out);
  }
  set_history(out, node);
}

} // namespace

void record_binary(const OpCall &call) {
  const BinaryOp op = *ops::binary_op(call.op);
  if (call.scalar != nullptr)
    record_binary_scalar(op, call);
  else
    record_binary_tensors(op, call);
}

void record_unary(const OpCall &call) {
  const UnaryOp op = *ops::unary_op(call.op);
  const Tensor &self = call.inputs[0];
  const Tensor &out = call.outputs[0];
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<UnaryBackward>(op);
  connect(*node, {&self});
  if (ops::info(op).saves == ops::Saves::Input)
    node->saved = SavedTensor(self);
  else if (ops::info(op).saves == ops::Saves::Result)
    node->saved = SavedTensor(out);
  set_history(out, node);
}

void record_clone(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<PassThroughBackward>(ops::backward_name(ops::OpId::Clone));
  connect(*node, {&self});
  set_history(call.outputs[0], node);
}

void record_binary_in_place(const OpCall &call, const std::function<void()> &forward) {
  const BinaryOp op = *ops::binary_op(call.op);
  const Tensor &self = call.inputs[0];
  const char *name = ops::info(op).in_place;
  if (call.scalar != nullptr) {
    if (!prepare_in_place(name, self, {&self})) {
      forward();
      return;
    }
    auto node = std::make_shared<BinaryScalarBackward>(op, *call.scalar, false);
    connect(*node, {&self});
    forward();
    rebase_history(self, node);
    return;
  }
  const Tensor &other = call.inputs[1];
  if (!prepare_in_place(name, self, {&self, &other})) {
    forward();
    return;
  }
  auto node = std::make_shared<BinaryBackward>(op);
  connect(*node, {&self, &other});
  if (op == BinaryOp::Mul) {
    if (other.requires_grad())
      node->self = SavedTensor(self.clone());
    if (self.requires_grad())
      node->other = SavedTensor(other);
  } else if (op == BinaryOp::Div) {
    node->other = SavedTensor(other);
  }
  forward();
  if (op == BinaryOp::Div && other.requires_grad())
    node->result = SavedTensor(self);
  rebase_history(self, node);
}

void record_unary_in_place(const OpCall &call, const std::function<void()> &forward) {
  const UnaryOp op = *ops::unary_op(call.op);
  const Tensor &self = call.inputs[0];
  if (!prepare_in_place(ops::info(op).in_place, self, {&self})) {
    forward();
    return;
  }
  auto node = std::make_shared<UnaryBackward>(op);
  connect(*node, {&self});
  if (ops::info(op).saves == ops::Saves::Input)
    node->saved = SavedTensor(self.clone());
  forward();
  if (ops::info(op).saves == ops::Saves::Result)
    node->saved = SavedTensor(self);
  rebase_history(self, node);
}

void record_fill_in_place(const OpCall &call, const std::function<void()> &forward) {
  const Tensor &self = call.inputs[0];
  if (!prepare_in_place(ops::names(ops::OpId::Fill).in_place, self, {&self})) {
    forward();
    return;
  }
  auto node = std::make_shared<OverwriteBackward>(ops::backward_name(ops::OpId::Fill));
  connect(*node, {&self});
  forward();
  rebase_history(self, node);
}

void record_copy_in_place(const OpCall &call, const std::function<void()> &forward) {
  const Tensor &self = call.inputs[0];
  const Tensor &src = call.inputs[1];
  if (!prepare_in_place(ops::names(ops::OpId::Copy).in_place, self, {&self, &src})) {
    forward();
    return;
  }
  auto node = std::make_shared<OverwriteBackward>(ops::backward_name(ops::OpId::Copy));
  connect(*node, {&self, &src});
  node->input_metas[1].forward_loc = call.loc;
  forward();
  rebase_history(self, node);
}

} // namespace pl::autograd
