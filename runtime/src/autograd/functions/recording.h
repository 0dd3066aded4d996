// What the backward-formula files share: building a node over an op's
// inputs, in-place bookkeeping, and masks the kernels have no op for.
#pragma once

#include <initializer_list>
#include <memory>

#include "autograd/graph.h"

namespace pl::autograd {

// Grad mode is on and some input requires grad.
bool should_record(std::initializer_list<const Tensor *> inputs);
bool should_record(TensorList inputs);

// Points node's edges at the inputs (an undefined input gets no edge).
void connect(Node &node, std::initializer_list<const Tensor *> inputs);
void connect(Node &node, TensorList inputs);

// Before an in-place op on self: refuses a leaf that requires grad and a
// view that requires grad; true when the op must record (then connect the
// node before the write and call rebase_history after it).
bool prepare_in_place(const char *op, const Tensor &self,
                      std::initializer_list<const Tensor *> inputs);
// After an in-place op: self is now the output of node.
void rebase_history(const Tensor &self, const std::shared_ptr<Node> &node);

// 1 where r > 0 and 0 where r == 0, for r >= 0 (no NaN), exactly: r scaled
// past the largest finite value is at least 1 (or inf) unless it is 0, and
// 1 - relu(1 - that) clamps it to 1. The kernels have no comparison op.
Tensor positive_mask(const Tensor &r);

} // namespace pl::autograd
