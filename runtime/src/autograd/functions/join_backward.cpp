// Backward formula of cat (stack is unsqueeze then cat): each input gets
// its slice of the gradient.
#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/internal.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

struct CatBackward final : Node {
  CatBackward(std::int64_t dim, std::vector<std::int64_t> lengths)
      : dim(dim), lengths(std::move(lengths)) {}
  const char *name() const override { return ops::backward_name(ops::OpId::Cat); }
  variable_list apply(variable_list &&grads) override {
    variable_list slices;
    std::int64_t offset = 0;
    for (std::int64_t length : lengths) {
      slices.push_back(grads[0].narrow(dim, offset, length));
      offset += length;
    }
    return slices;
  }
  std::int64_t dim;
  std::vector<std::int64_t> lengths;
};

} // namespace

void record_cat(const OpCall &call) {
  const TensorList tensors = call.inputs;
  const Tensor &out = call.outputs[0];
  if (!should_record(tensors))
    return;
  const std::int64_t wrapped = detail::wrap_dim("cat", call.ints[0], out.dim());
  std::vector<std::int64_t> lengths;
  for (const Tensor &tensor : tensors)
    lengths.push_back(tensor.size(wrapped));
  auto node = std::make_shared<CatBackward>(wrapped, std::move(lengths));
  connect(*node, tensors);
  set_history(out, node);
}

} // namespace pl::autograd
