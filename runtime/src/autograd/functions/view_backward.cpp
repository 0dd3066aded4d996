// Backward formulas of the views: the gradient seen through the inverse
// view (reshape, transpose), or written into zeros where the view was
// (narrow, select).
#include <functional>

#include <pl/factories.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

struct ReshapeBackward final : Node {
  explicit ReshapeBackward(std::vector<std::int64_t> input_sizes)
      : input_sizes(std::move(input_sizes)) {}
  const char *name() const override { return ops::backward_name(ops::OpId::Reshape); }
  variable_list apply(variable_list &&grads) override { return {grads[0].reshape(input_sizes)}; }
  std::vector<std::int64_t> input_sizes;
};

struct TransposeBackward final : Node {
  TransposeBackward(std::int64_t dim0, std::int64_t dim1) : dim0(dim0), dim1(dim1) {}
  const char *name() const override { return ops::backward_name(ops::OpId::Transpose); }
  variable_list apply(variable_list &&grads) override { return {grads[0].transpose(dim0, dim1)}; }
  std::int64_t dim0, dim1;
};

// narrow (length > 0 keeps the dim) and select (the dim is gone).
struct SliceBackward final : Node {
  SliceBackward(const char *kind, std::vector<std::int64_t> input_sizes, std::int64_t dim,
                std::int64_t start, bool selects)
      : kind(kind), input_sizes(std::move(input_sizes)), dim(dim), start(start), selects(selects) {}
  const char *name() const override { return kind; }
  variable_list apply(variable_list &&grads) override {
    const Tensor &grad = grads[0];
    Tensor grad_input = pl::zeros(input_sizes, grad.options());
    if (selects)
      grad_input.select(dim, start).copy_(grad);
    else
      grad_input.narrow(dim, start, grad.size(dim)).copy_(grad);
    return {grad_input};
  }
  const char *kind;
  std::vector<std::int64_t> input_sizes;
  std::int64_t dim, start;
  bool selects;
};

void record_view(const Tensor &out, const Tensor &self, const std::shared_ptr<Node> &node) {
  connect(*node, {&self});
  set_history(out, node);
  if (out.impl()->storage != self.impl()->storage)
    return; // reshape copied
  AutogradMeta &meta = materialize_meta(out);
  meta.is_view = true;
  const AutogradMeta &self_meta = *self.impl()->autograd_meta;
  meta.view_base = self_meta.is_view ? self_meta.view_base : self;
  meta.base_grad_fn_at_view = meta.view_base.impl()->autograd_meta->grad_fn;
  meta.version_at_view = out._version();
}

// A view op that records nothing: remember a view that must not be written
// in grad mode (see AutogradMeta::is_view_made_without_grad).
void note_unrecorded_view(const Tensor &out, const Tensor &self) {
  const AutogradMeta &self_meta = *self.impl()->autograd_meta;
  const bool base_needs_grad = self_meta.requires_grad || self_meta.grad_fn != nullptr ||
                               self_meta.is_view_made_without_grad;
  if (base_needs_grad && out.impl()->storage == self.impl()->storage)
    materialize_meta(out).is_view_made_without_grad = true;
}

void record_view_op(const Tensor &out, const Tensor &self,
                    const std::function<std::shared_ptr<Node>()> &make_node) {
  if (should_record({&self}))
    record_view(out, self, make_node());
  else
    note_unrecorded_view(out, self);
}

} // namespace

void record_reshape(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  record_view_op(call.outputs[0], self,
                 [&] { return std::make_shared<ReshapeBackward>(self.sizes().vec()); });
}

void record_transpose(const OpCall &call) {
  record_view_op(call.outputs[0], call.inputs[0], [&] {
    return std::make_shared<TransposeBackward>(call.ints[0], call.ints[1]);
  });
}

void record_narrow(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  record_view_op(call.outputs[0], self, [&] {
    return std::make_shared<SliceBackward>(ops::backward_name(ops::OpId::Narrow),
                                           self.sizes().vec(), call.ints[0], call.ints[1], false);
  });
}

void record_select(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  record_view_op(call.outputs[0], self, [&] {
    return std::make_shared<SliceBackward>(ops::backward_name(ops::OpId::Select),
                                           self.sizes().vec(), call.ints[0], call.ints[1], true);
  });
}

} // namespace pl::autograd
