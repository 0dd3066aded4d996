// Backward formulas of the views: the gradient seen through the inverse
// view (reshape, transpose), or written into zeros where the view was
// (narrow, select).
#include <pl/factories.h>

#include "autograd/functions/recording.h"
#include "autograd/record.h"

namespace pl::autograd {
namespace {

struct ReshapeBackward final : Node {
  explicit ReshapeBackward(std::vector<std::int64_t> input_sizes)
      : input_sizes(std::move(input_sizes)) {}
  const char *name() const override { return "ReshapeBackward"; }
  variable_list apply(variable_list &&grads) override { return {grads[0].reshape(input_sizes)}; }
  std::vector<std::int64_t> input_sizes;
};

struct TransposeBackward final : Node {
  TransposeBackward(std::int64_t dim0, std::int64_t dim1) : dim0(dim0), dim1(dim1) {}
  const char *name() const override { return "TransposeBackward"; }
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
  materialize_meta(out).is_view = out.impl()->storage == self.impl()->storage;
}

} // namespace

void record_reshape(const Tensor &out, const Tensor &self) {
  if (should_record({&self}))
    record_view(out, self, std::make_shared<ReshapeBackward>(self.sizes().vec()));
}

void record_transpose(const Tensor &out, const Tensor &self, std::int64_t dim0, std::int64_t dim1) {
  if (should_record({&self}))
    record_view(out, self, std::make_shared<TransposeBackward>(dim0, dim1));
}

void record_narrow(const Tensor &out, const Tensor &self, std::int64_t dim, std::int64_t start) {
  if (should_record({&self}))
    record_view(
        out, self,
        std::make_shared<SliceBackward>("NarrowBackward", self.sizes().vec(), dim, start, false));
}

void record_select(const Tensor &out, const Tensor &self, std::int64_t dim, std::int64_t index) {
  if (should_record({&self}))
    record_view(
        out, self,
        std::make_shared<SliceBackward>("SelectBackward", self.sizes().vec(), dim, index, true));
}

} // namespace pl::autograd
