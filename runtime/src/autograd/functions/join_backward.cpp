// Backward formulas of cat (stack is unsqueeze then cat) and of transfers
// (to/cuda/cpu): each input gets its slice, or the gradient goes back to
// the device and dtype it came from.
#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/internal.h"

namespace pl::autograd {
namespace {

struct CatBackward final : Node {
  CatBackward(std::int64_t dim, std::vector<std::int64_t> lengths)
      : dim(dim), lengths(std::move(lengths)) {}
  const char *name() const override { return "CatBackward"; }
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

// The move back names the forward's call site, as the transfer guard's
// reports should.
struct ToBackward final : Node {
  ToBackward(Device device, ScalarType dtype, std::source_location loc)
      : device(device), dtype(dtype), loc(loc) {}
  const char *name() const override { return "ToBackward"; }
  variable_list apply(variable_list &&grads) override {
    return {grads[0].to(device, dtype, false, false, loc)};
  }
  Device device;
  ScalarType dtype;
  std::source_location loc;
};

} // namespace

void record_cat(const Tensor &out, TensorList tensors, std::int64_t dim) {
  if (!should_record(tensors))
    return;
  const std::int64_t wrapped = detail::wrap_dim("cat", dim, out.dim());
  std::vector<std::int64_t> lengths;
  for (const Tensor &tensor : tensors)
    lengths.push_back(tensor.size(wrapped));
  auto node = std::make_shared<CatBackward>(wrapped, std::move(lengths));
  connect(*node, tensors);
  set_history(out, node);
}

void record_to(const Tensor &out, const Tensor &self, std::source_location loc) {
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<ToBackward>(self.device(), self.dtype(), loc);
  connect(*node, {&self});
  set_history(out, node);
  if (self.is_leaf() && out.device() != self.device()) {
    AutogradMeta &meta = materialize_meta(out);
    meta.moved_at = loc;
    meta.moved_from = self.device();
  }
}

} // namespace pl::autograd
