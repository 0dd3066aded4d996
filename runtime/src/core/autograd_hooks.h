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
#include "core/op_catalogue.h"

namespace pl::detail {

// Whether the tensor takes part in autograd (autograd gave it its state).
inline bool is_tracked(const Tensor &tensor) noexcept {
  return tensor.impl() != nullptr && tensor.impl()->autograd_meta != nullptr;
}
inline bool is_tracked(const Tensor &a, const Tensor &b) noexcept {
  return is_tracked(a) || is_tracked(b);
}
bool is_tracked(TensorList tensors) noexcept;

// One op as autograd needs to see it, whatever the op: which op ran, its
// tensor inputs, its results and the non-tensor arguments its backward
// formula reads. Autograd finds the formula by `op` (its table of formulas,
// autograd/functions/recording.cpp), so the interface below knows no op:
// adding an op to autograd adds a line to that table and the op's formula,
// not a member here.
struct OpCall {
  ops::OpId op;
  // The tensors gradients flow to, in the order of the op's signature (an
  // undefined one, such as linear's absent bias, gets no gradient).
  TensorList inputs;
  // The results (max(dim): values, then indices); empty for an in-place
  // op, whose result is inputs[0].
  TensorList outputs = {};
  // The integer arguments, in the order of the op's signature: the reduced
  // dims (sum, mean), dim (max, cat), dim0 and dim1 (transpose), dim and
  // start (narrow), dim and index (select); dims already wrapped where the
  // op wraps them.
  IntArrayRef ints = {};
  // The scalar operand of a binary op with one; `scalar_is_lhs` for c - t
  // and c / t.
  const Scalar *scalar = nullptr;
  bool scalar_is_lhs = false;
  // The caller's line (to/cuda/cpu, copy_), named by the transfer guard
  // when the gradient moves back.
  std::source_location loc = {};
};

class AutogradHooks {
public:
  // After an out-of-place op: records its history when grad mode is on and
  // an input requires grad (its outputs get the op's backward node).
  virtual void record(const OpCall &call) const = 0;
  // An in-place op on inputs[0]: `forward` does the write; the hook refuses
  // a leaf that requires grad (and a view of one), saves what the formula
  // needs before the write, and then makes inputs[0] the output of the new
  // node. (The op returns its own `self`: inputs may hold copies of the
  // handles, which die with the call.)
  virtual void record_in_place(const OpCall &call,
                               const std::function<void()> &forward) const = 0;

protected:
  ~AutogradHooks() = default;
};

// The hooks autograd registered. Called only for tracked operands, which
// exist only once autograd has run, so they are always registered by then.
const AutogradHooks &autograd_hooks() noexcept;
// Autograd's registration, once, while the library loads.
void set_autograd_hooks(const AutogradHooks &hooks) noexcept;

} // namespace pl::detail
