// Autograd's implementation of the core's hooks (core/autograd_hooks.h): one
// entry point for out-of-place ops and one for in-place ops, each of which
// looks the call's op up in the table of formulas (recording.cpp) and runs
// the recorder of its family. A recorder, defined beside its backward
// formulas in functions/, checks grad mode and requires_grad, builds the
// op's node, saves what the formula reads and sets the outputs' history.
#pragma once

#include <functional>

#include "core/autograd_hooks.h"

namespace pl::autograd {

using detail::OpCall;

class RecordingHooks final : public detail::AutogradHooks {
public:
  void record(const OpCall &call) const override;
  void record_in_place(const OpCall &call, const std::function<void()> &forward) const override;
};

// Out of place: record `call` (grad mode on and an input requiring grad).
using Recorder = void (*)(const OpCall &call);
// In place on call.inputs[0]: runs `forward` (the write) between saving
// what the formula reads from before and after it.
using InPlaceRecorder = void (*)(const OpCall &call, const std::function<void()> &forward);

// functions/elementwise_backward.cpp
void record_binary(const OpCall &call);
void record_unary(const OpCall &call);
void record_clone(const OpCall &call);
void record_binary_in_place(const OpCall &call, const std::function<void()> &forward);
void record_unary_in_place(const OpCall &call, const std::function<void()> &forward);
void record_fill_in_place(const OpCall &call, const std::function<void()> &forward);
void record_copy_in_place(const OpCall &call, const std::function<void()> &forward);
// functions/reduction_backward.cpp
void record_sum(const OpCall &call);
void record_max(const OpCall &call);
// functions/linalg_backward.cpp
void record_matmul(const OpCall &call);
void record_linear(const OpCall &call);
// functions/view_backward.cpp
void record_reshape(const OpCall &call);
void record_transpose(const OpCall &call);
void record_narrow(const OpCall &call);
void record_select(const OpCall &call);
// functions/join_backward.cpp, functions/transfer_backward.cpp
void record_cat(const OpCall &call);
void record_to(const OpCall &call);

} // namespace pl::autograd
