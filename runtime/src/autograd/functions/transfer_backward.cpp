// Backward formula of the transfers and conversions (to/cuda/cpu): the
// gradient goes back to the device and dtype the input came from.
#include "autograd/functions/recording.h"
#include "autograd/record.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

// The move back names the forward's call site, as the transfer guard's
// reports should.
struct ToBackward final : Node {
  ToBackward(Device device, ScalarType dtype, std::source_location loc)
      : device(device), dtype(dtype), loc(loc) {}
  const char *name() const override { return ops::backward_name(ops::OpId::To); }
  variable_list apply(variable_list &&grads) override {
    return {grads[0].to(device, dtype, false, false, loc)};
  }
  Device device;
  ScalarType dtype;
  std::source_location loc;
};

} // namespace

void record_to(const OpCall &call) {
  const Tensor &self = call.inputs[0];
  const Tensor &out = call.outputs[0];
  if (!should_record({&self}))
    return;
  auto node = std::make_shared<ToBackward>(self.device(), self.dtype(), call.loc);
  connect(*node, {&self});
  set_history(out, node);
  if (self.is_leaf() && out.device() != self.device()) {
    AutogradMeta &meta = materialize_meta(out);
    meta.moved_at = call.loc;
    meta.moved_from = self.device();
  }
}

} // namespace pl::autograd
