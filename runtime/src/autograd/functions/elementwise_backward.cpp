// Backward formulas of the elementwise ops (+ - * / with tensors and
// scalars, relu exp log neg, clone) and of their in-place forms, fill_ and
// copy_. Broadcasting, dtype and device are undone by the engine.
#include <pl/ops.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"

namespace pl::autograd {
namespace {

using backend::BinaryOp;
using backend::UnaryOp;

// self (op) other, out of place or in place. For in-place ops `self` is
// the value before the write (saved only when other's gradient needs it)
// and `result` the value after.
struct BinaryBackward final : Node {
  explicit BinaryBackward(BinaryOp op) : op(op) {}
  const char *name() const override {
    switch (op) {
    case BinaryOp::Add:
      return "AddBackward";
    case BinaryOp::Sub:
      return "SubBackward";
    case BinaryOp::Mul:
      return "MulBackward";
    case BinaryOp::Div:
      return "DivBackward";
    }
    return "BinaryBackward";
  }
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
  const char *name() const override { return "BinaryScalarBackward"; }
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

// For in-place forms, `self` is the input before the write (log_) and
// `result` the value after (relu_, exp_).
struct UnaryBackward final : Node {
  explicit UnaryBackward(UnaryOp op) : op(op) {}
  const char *name() const override {
    switch (op) {
    case UnaryOp::Neg:
      return "NegBackward";
    case UnaryOp::Relu:
      return "ReluBackward";
    case UnaryOp::Exp:
      return "ExpBackward";
    case UnaryOp::Log:
      return "LogBackward";
    }
    return "UnaryBackward";
  }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    switch (op) {
    case UnaryOp::Neg:
      return {-grad};
    case UnaryOp::Relu:
      return {grad * positive_mask(result.unpack(name()))};
    case UnaryOp::Exp:
      return {grad * result.unpack(name())};
    case UnaryOp::Log:
      return {grad / self.unpack(name())};
    }
    return {};
  }
  void release_saved() override {
    self.release();
    result.release();
  }
  UnaryOp op;
  SavedTensor self, result;
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

const char *in_place_name(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "add_";
  case BinaryOp::Sub:
    return "sub_";
  case BinaryOp::Mul:
    return "mul_";
  case BinaryOp::Div:
    return "div_";
  }
  return "?";
}

const char *in_place_name(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "neg_";
  case UnaryOp::Relu:
    return "relu_";
  case UnaryOp::Exp:
    return "exp_";
  case UnaryOp::Log:
    return "log_";
  }
  return "?";
}

} // namespace

void record_binary(BinaryOp op, const Tensor &out, const Tensor &self, const Tensor &other) {
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

void record_binary_scalar(BinaryOp op, const Tensor &out, const Tensor &self, const Scalar &other,
                          bool scalar_is_lhs) {
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<BinaryScalarBackward>(op, other, scalar_is_lhs);
  connect(*node, {&self});
  if (op == BinaryOp::Div && scalar_is_lhs) {
    node->self = SavedTensor(self);
    node->result = SavedTensor(out);
  }
  set_history(out, node);
}

void record_unary(UnaryOp op, const Tensor &out, const Tensor &self) {
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<UnaryBackward>(op);
  connect(*node, {&self});
  if (op == UnaryOp::Log)
    node->self = SavedTensor(self);
  else if (op != UnaryOp::Neg)
    node->result = SavedTensor(out);
  set_history(out, node);
}

void record_clone(const Tensor &out, const Tensor &self) {
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<PassThroughBackward>("CloneBackward");
  connect(*node, {&self});
  set_history(out, node);
}

Tensor &binary_in_place(BinaryOp op, const Tensor &self, const Tensor &other,
                        const std::function<void()> &forward) {
  if (!prepare_in_place(in_place_name(op), self, {&self, &other})) {
    forward();
    return const_cast<Tensor &>(self);
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
  return const_cast<Tensor &>(self);
}

Tensor &binary_scalar_in_place(BinaryOp op, const Tensor &self, const Scalar &other,
                               const std::function<void()> &forward) {
  if (!prepare_in_place(in_place_name(op), self, {&self})) {
    forward();
    return const_cast<Tensor &>(self);
  }
  auto node = std::make_shared<BinaryScalarBackward>(op, other, false);
  connect(*node, {&self});
  forward();
  rebase_history(self, node);
  return const_cast<Tensor &>(self);
}

Tensor &unary_in_place(UnaryOp op, const Tensor &self, const std::function<void()> &forward) {
  if (!prepare_in_place(in_place_name(op), self, {&self})) {
    forward();
    return const_cast<Tensor &>(self);
  }
  auto node = std::make_shared<UnaryBackward>(op);
  connect(*node, {&self});
  if (op == UnaryOp::Log)
    node->self = SavedTensor(self.clone());
  forward();
  if (op == UnaryOp::Relu || op == UnaryOp::Exp)
    node->result = SavedTensor(self);
  rebase_history(self, node);
  return const_cast<Tensor &>(self);
}

Tensor &fill_in_place(const Tensor &self, const std::function<void()> &forward) {
  if (!prepare_in_place("fill_", self, {&self})) {
    forward();
    return const_cast<Tensor &>(self);
  }
  auto node = std::make_shared<OverwriteBackward>("FillBackward");
  connect(*node, {&self});
  forward();
  rebase_history(self, node);
  return const_cast<Tensor &>(self);
}

Tensor &copy_in_place(const Tensor &self, const Tensor &src, const std::function<void()> &forward) {
  if (!prepare_in_place("copy_", self, {&self, &src})) {
    forward();
    return const_cast<Tensor &>(self);
  }
  auto node = std::make_shared<OverwriteBackward>("CopyBackward");
  connect(*node, {&self, &src});
  forward();
  rebase_history(self, node);
  return const_cast<Tensor &>(self);
}

} // namespace pl::autograd
