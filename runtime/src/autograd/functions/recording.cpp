#include "autograd/functions/recording.h"

#include <array>
#include <utility>

#include <pl/ops.h>

#include "autograd/record.h"
#include "core/internal.h"
#include "core/op_catalogue.h"

namespace pl::autograd {
namespace {

template <class Range> bool any_requires_grad(const Range &inputs) {
  if (!GradMode::is_enabled())
    return false;
  for (const auto &input : inputs) {
    const Tensor &tensor = *input;
    if (tensor.defined() && tensor.requires_grad())
      return true;
  }
  return false;
}

void add_edge(const Tensor &input, std::vector<Edge> &edges, std::vector<InputMeta> &metas) {
  if (input.defined()) {
    edges.push_back(gradient_edge(input));
    metas.push_back(input_meta(input));
  } else {
    edges.emplace_back();
    metas.emplace_back();
  }
}

// The recorders of one op (nullptr: the op has no such form, or records
// nothing).
struct Formula {
  Recorder record = nullptr;
  InPlaceRecorder record_in_place = nullptr;
};

// The table of formulas, by the op id the core's ops record under (stack
// records as cat, cuda/cpu as to, the reshaping views as reshape).
constexpr Formula formula_of(ops::OpId op) {
  using ops::OpId;
  if (ops::binary_op(op))
    return {record_binary, record_binary_in_place};
  if (ops::unary_op(op))
    return {record_unary, record_unary_in_place};
  switch (op) {
  case OpId::Sum:
  case OpId::Mean:
    return {record_sum};
  case OpId::Max:
    return {record_max};
  case OpId::Matmul:
  case OpId::Mm:
    return {record_matmul};
  case OpId::Linear:
    return {record_linear};
  case OpId::Cat:
    return {record_cat};
  case OpId::Reshape:
    return {record_reshape};
  case OpId::Transpose:
    return {record_transpose};
  case OpId::Narrow:
    return {record_narrow};
  case OpId::Select:
    return {record_select};
  case OpId::Clone:
    return {record_clone};
  case OpId::To:
    return {record_to};
  case OpId::Fill:
    return {nullptr, record_fill_in_place};
  case OpId::Copy:
    return {nullptr, record_copy_in_place};
  default:
    return {};
  }
}

template <std::size_t... Ids>
constexpr std::array<Formula, sizeof...(Ids)> make_formula_table(std::index_sequence<Ids...>) {
  return {formula_of(static_cast<ops::OpId>(Ids))...};
}
constexpr auto kFormulas = make_formula_table(std::make_index_sequence<std::size(ops::kOpNames)>());

// The hooks the core's ops call, registered before any tensor can take
// part in autograd.
const RecordingHooks recording_hooks;
[[maybe_unused]] const bool registered = (detail::set_autograd_hooks(recording_hooks), true);

} // namespace

void RecordingHooks::record(const OpCall &call) const {
  const Recorder recorder = kFormulas[static_cast<std::size_t>(call.op)].record;
  PL_ASSERT(recorder != nullptr && "an op recorded without a formula");
  recorder(call);
}

void RecordingHooks::record_in_place(const OpCall &call,
                                     const std::function<void()> &forward) const {
  const InPlaceRecorder recorder = kFormulas[static_cast<std::size_t>(call.op)].record_in_place;
  PL_ASSERT(recorder != nullptr && "an in-place op recorded without a formula");
  recorder(call, forward);
}

bool should_record(std::initializer_list<const Tensor *> inputs) {
  return any_requires_grad(inputs);
}

bool should_record(TensorList inputs) {
  std::vector<const Tensor *> pointers;
  for (const Tensor &input : inputs)
    pointers.push_back(&input);
  return any_requires_grad(pointers);
}

void connect(Node &node, std::initializer_list<const Tensor *> inputs) {
  std::vector<Edge> edges;
  std::vector<InputMeta> metas;
  for (const Tensor *input : inputs)
    add_edge(*input, edges, metas);
  node.set_next_edges(std::move(edges), std::move(metas));
}

void connect(Node &node, TensorList inputs) {
  std::vector<Edge> edges;
  std::vector<InputMeta> metas;
  for (const Tensor &input : inputs)
    add_edge(input, edges, metas);
  node.set_next_edges(std::move(edges), std::move(metas));
}

bool prepare_in_place(const char *op, const Tensor &self,
                      std::initializer_list<const Tensor *> inputs) {
  if (!GradMode::is_enabled())
    return false;
  if (const AutogradMeta *meta = self.impl()->autograd_meta.get()) {
    PL_CHECK(!(meta->requires_grad && meta->grad_fn == nullptr), Error, op,
             ": a leaf tensor that requires grad is being used in an in-place operation; do it "
             "under pl::NoGradGuard (as optimizers do) or on a detach()ed tensor");
    PL_CHECK(!(meta->is_view && meta->grad_fn != nullptr), Error, op,
             ": in-place operations on a view of a tensor that requires grad are not supported "
             "by pl's autograd; clone() the view first");
    PL_CHECK(!meta->is_view_made_without_grad, Error, op,
             ": a view of a tensor that requires grad was made in no_grad mode and is being "
             "modified in place with grad mode enabled; make the view in grad mode, or write "
             "it under pl::NoGradGuard");
  }
  if (!any_requires_grad(inputs))
    return false;
  // Self gets history from the write; a tensor sharing its storage (its
  // base or another view) would not, and would lose the gradient of what
  // was written (PyTorch rebases the base; pl refuses).
  PL_CHECK(self.requires_grad() || self.impl()->storage.use_count() == 1, Error, op,
           ": writing a tensor that requires grad into a tensor that does not, and that shares "
           "its storage with another tensor (a view or the base of one), would lose the "
           "gradient through that other tensor: pl's autograd does not rebase views; write into "
           "a tensor of its own, or build the result with pl::cat");
  return true;
}

void rebase_history(const Tensor &self, const std::shared_ptr<Node> &node) {
  AutogradMeta &meta = materialize_meta(self);
  if (meta.retains_grad && meta.grad_fn != nullptr) {
    auto &retained = meta.grad_fn->retained_outputs;
    std::erase_if(retained, [&](const Node::RetainedOutput &entry) {
      return entry.tensor.lock() == self.impl();
    });
  }
  meta.is_view = false;
  set_history(self, node);
}

Tensor positive_mask(const Tensor &r) {
  // In two finite steps, a scale that takes the smallest positive
  // (subnormal) value of the dtype to at least 1.
  const double half_scale = r.dtype() == kDouble ? 0x1p600 : 0x1p100;
  const Tensor scaled = r * half_scale * half_scale;
  return rsub(rsub(scaled, 1.0).relu(), 1.0);
}

} // namespace pl::autograd
