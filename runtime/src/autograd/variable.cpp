// Tensors in the graph: AutogradMeta, leaves and their AccumulateGrad nodes,
// saved tensors, and Tensor's autograd methods.
#include <atomic>

#include <placelint/rule_ids.h>

#include "autograd/graph.h"
#include "core/internal.h"

namespace pl::autograd {
namespace {

std::atomic<std::uint64_t> next_sequence_nr{0};

// Adds each gradient into its leaf's grad(), which it owns (never an alias
// of a gradient another edge also received).
struct AccumulateGrad final : Node {
  explicit AccumulateGrad(Tensor leaf) : variable(std::move(leaf)) {}
  const char *name() const override { return "AccumulateGrad"; }
  variable_list apply(variable_list &&grads) override {
    Tensor &grad = variable.mutable_grad();
    if (!grad.defined())
      grad = grads[0].clone();
    else
      grad.add_(grads[0]);
    return {};
  }
  Tensor variable;
};

} // namespace

SavedTensor::SavedTensor(const Tensor &tensor)
    : data_(tensor.defined() ? tensor.detach() : Tensor()),
      version_(tensor.defined() ? tensor._version() : 0), was_saved_(true) {}

Tensor SavedTensor::unpack(const char *node_name) const {
  PL_CHECK(was_saved_, Error, node_name,
           ": trying to backward through the graph a second time (or to access saved tensors "
           "after they have already been freed); specify retain_graph=true the first time");
  PL_CHECK(!data_.defined() || data_._version() == version_, Error,
           "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: a tensor of sizes ",
           data_.defined() ? data_.sizes().vec() : std::vector<std::int64_t>{}, " saved by ",
           node_name, " is at version ", data_.defined() ? data_._version() : 0,
           "; expected version ", version_, " instead");
  return data_;
}

void SavedTensor::release() noexcept {
  data_ = Tensor();
  was_saved_ = false;
}

Node::Node() : sequence_nr(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

void Node::set_next_edges(std::vector<Edge> edges, std::vector<InputMeta> metas) {
  PL_ASSERT(edges.size() == metas.size());
  next_edges = std::move(edges);
  input_metas = std::move(metas);
}

AutogradMeta &materialize_meta(const Tensor &tensor) {
  auto &meta = tensor.impl()->autograd_meta;
  if (meta == nullptr)
    meta = std::make_shared<AutogradMeta>();
  return *meta;
}

namespace {

// The base of a view had an in-place op recorded on it after the view was
// made. PyTorch would rebase the view's grad_fn onto the base's new
// history; pl refuses, rather than let the gradient skip the in-place op.
bool base_history_changed(const Tensor &view, const AutogradMeta &meta) {
  if (view._version() == meta.version_at_view)
    return false;
  const AutogradMeta *base_meta = meta.view_base.impl()->autograd_meta.get();
  return base_meta->grad_fn != meta.base_grad_fn_at_view.lock();
}

} // namespace

Edge gradient_edge(const Tensor &tensor) {
  if (tensor.impl()->autograd_meta == nullptr)
    return {};
  AutogradMeta &meta = *tensor.impl()->autograd_meta;
  PL_CHECK(!(meta.is_view && base_history_changed(tensor, meta)), Error,
           "a view of a tensor that requires grad is used after its base was modified by an "
           "in-place operation (the view was made at version ",
           meta.version_at_view, ", the base is now at version ", tensor._version(),
           "); pl's autograd does not rebase views: make the view again after the in-place "
           "operation, or clone() it before");
  if (meta.grad_fn)
    return {meta.grad_fn, meta.output_nr};
  if (!meta.requires_grad)
    return {};
  std::shared_ptr<Node> accumulator = meta.grad_accumulator.lock();
  if (!accumulator) {
    accumulator = std::make_shared<AccumulateGrad>(tensor);
    meta.grad_accumulator = accumulator;
  }
  return {accumulator, 0};
}

InputMeta input_meta(const Tensor &tensor) {
  const TensorImpl &impl = *tensor.impl();
  return {impl.sizes.vec(), impl.dtype, impl.device, std::nullopt};
}

void set_history(const Tensor &out, const std::shared_ptr<Node> &node) {
  AutogradMeta &meta = materialize_meta(out);
  meta.grad_fn = node;
  meta.output_nr = 0;
  if (meta.retains_grad)
    node->retained_outputs.push_back({0, out.impl()});
}

void zero_grad(const std::vector<Tensor> &parameters, bool set_to_none) {
  const NoGradGuard no_grad;
  for (const Tensor &parameter : parameters) {
    if (!parameter.grad().defined())
      continue;
    Tensor &grad = parameter.mutable_grad();
    if (set_to_none)
      grad = Tensor();
    else
      grad.zero_();
  }
}

} // namespace pl::autograd

namespace pl {

using autograd::AutogradMeta;

namespace {

const Tensor &undefined_tensor() {
  static const Tensor undefined;
  return undefined;
}

} // namespace

bool Tensor::requires_grad() const {
  const AutogradMeta *meta = impl_ref().autograd_meta.get();
  return meta != nullptr && (meta->requires_grad || meta->grad_fn != nullptr);
}

Tensor &Tensor::requires_grad_(bool requires_grad) const {
  const char *op = ops::name(ops::OpId::RequiresGrad, /*in_place=*/true);
  const TensorImpl &impl = impl_ref();
  PL_CHECK(is_leaf() || requires_grad, Error, op,
           ": you can only change requires_grad flags of leaf variables; use "
           "detach() to get a leaf of a non-leaf");
  if (!is_leaf())
    return self_ref();
  PL_CHECK(!requires_grad || is_floating_type(impl.dtype), Error, op,
           ": only tensors of floating point dtype can require gradients, but got ", impl.dtype);
  if (requires_grad || impl.autograd_meta != nullptr)
    autograd::materialize_meta(*this).requires_grad = requires_grad;
  return self_ref();
}

bool Tensor::is_leaf() const {
  const AutogradMeta *meta = impl_ref().autograd_meta.get();
  return meta == nullptr || meta->grad_fn == nullptr;
}

std::int64_t Tensor::output_nr() const {
  const AutogradMeta *meta = impl_ref().autograd_meta.get();
  return meta == nullptr ? 0 : meta->output_nr;
}

const Tensor &Tensor::grad(SourceLocation loc) const {
  const AutogradMeta *meta = impl_ref().autograd_meta.get();
  if (meta == nullptr)
    return undefined_tensor();
  if (meta->moved_at.has_value() && meta->grad_fn != nullptr && !meta->retains_grad)
    detail::guard_non_leaf_parameter(ops::name(ops::OpId::Grad), "the tensor", meta->moved_from, device(),
                                     *meta->moved_at, loc);
  return meta->grad;
}

Tensor &Tensor::mutable_grad() const {
  impl_ref();
  return autograd::materialize_meta(*this).grad;
}

void Tensor::retain_grad() const {
  PL_CHECK(requires_grad(), Error,
           "retain_grad: can't retain_grad on a tensor that has requires_grad=false");
  AutogradMeta &meta = autograd::materialize_meta(*this);
  if (meta.retains_grad || meta.grad_fn == nullptr)
    return; // a leaf's grad is kept anyway
  meta.retains_grad = true;
  meta.grad_fn->retained_outputs.push_back({meta.output_nr, impl_});
}

bool Tensor::retains_grad() const {
  const AutogradMeta *meta = impl_ref().autograd_meta.get();
  return meta != nullptr && meta->retains_grad;
}

Tensor Tensor::detach() const {
  const TensorImpl &impl = impl_ref();
  return detail::make_view(*this, impl.sizes, impl.strides, impl.storage_offset);
}

void Tensor::backward(const Tensor &gradient, std::optional<bool> retain_graph,
                      bool create_graph) const {
  impl_ref();
  autograd::backward({*this}, gradient.defined() ? variable_list{gradient} : variable_list{},
                     retain_graph, create_graph);
}

} // namespace pl
