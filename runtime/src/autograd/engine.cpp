// The engine: runs the graph backwards from its roots, each node once all
// the gradients for its outputs have arrived (dependency counts), later
// nodes first among the ready ones, with grad mode off.
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include <pl/factories.h>
#include <pl/ops.h>

#include "autograd/graph.h"
#include "core/internal.h"

namespace pl::autograd {
namespace {

struct LaterFirst {
  bool operator()(const Node *a, const Node *b) const { return a->sequence_nr < b->sequence_nr; }
};

void accumulate(Tensor &slot, const Tensor &grad) {
  if (!grad.defined())
    return;
  slot = slot.defined() ? slot + grad : grad;
}

bool is_broadcast_of(IntArrayRef grad, IntArrayRef input) {
  if (input.size() > grad.size())
    return false;
  const std::size_t lead = grad.size() - input.size();
  for (std::size_t d = 0; d < input.size(); ++d)
    if (input[d] != 1 && input[d] != grad[lead + d])
      return false;
  return true;
}

// The gradient as the input was: summed over broadcast dims, in its dtype,
// on its device (a cpu scalar that joined an op on another device).
Tensor fit_to_input(const Node &node, Tensor grad, const InputMeta &meta) {
  if (grad.sizes() != IntArrayRef(meta.sizes)) {
    PL_CHECK(is_broadcast_of(grad.sizes(), meta.sizes), Error, node.name(),
             ": returned a gradient of sizes ", grad.sizes().vec(), " for an input of sizes ",
             meta.sizes);
    grad = sum_to(grad, meta.sizes);
  }
  if (grad.dtype() != meta.dtype || grad.device() != meta.device)
    grad = grad.to(meta.device, meta.dtype);
  return grad;
}

std::unordered_map<Node *, int> count_dependencies(const std::vector<Edge> &roots) {
  std::unordered_map<Node *, int> dependencies;
  std::unordered_set<Node *> seen;
  std::vector<Node *> stack;
  for (const Edge &root : roots)
    if (root.is_valid() && seen.insert(root.function.get()).second)
      stack.push_back(root.function.get());
  while (!stack.empty()) {
    Node *node = stack.back();
    stack.pop_back();
    for (const Edge &edge : node->next_edges) {
      if (!edge.is_valid())
        continue;
      ++dependencies[edge.function.get()];
      if (seen.insert(edge.function.get()).second)
        stack.push_back(edge.function.get());
    }
  }
  return dependencies;
}

void store_retained(Node &node, const variable_list &grads) {
  for (const Node::RetainedOutput &retained : node.retained_outputs) {
    const std::shared_ptr<TensorImpl> impl = retained.tensor.lock();
    const Tensor &grad = grads[retained.output_nr];
    if (impl == nullptr || !grad.defined())
      continue;
    Tensor &slot = materialize_meta(Tensor(impl)).grad;
    slot = slot.defined() ? slot + grad : grad.clone();
  }
}

} // namespace

Tensor sum_to(const Tensor &grad, IntArrayRef sizes) {
  const IntArrayRef from = grad.sizes();
  const std::size_t lead = from.size() - sizes.size();
  std::vector<std::int64_t> dims;
  for (std::size_t d = 0; d < from.size(); ++d)
    if (d < lead || (sizes[d - lead] == 1 && from[d] != 1))
      dims.push_back(static_cast<std::int64_t>(d));
  if (dims.empty())
    return grad.reshape(sizes);
  return grad.sum(dims, true).reshape(sizes);
}

variable_list run_backward(const std::vector<Edge> &roots, variable_list root_grads,
                           bool keep_graph, const std::vector<Edge> *capture) {
  PL_ASSERT(roots.size() == root_grads.size());
  const NoGradGuard no_grad;
  std::unordered_map<Node *, int> dependencies = count_dependencies(roots);
  // Keeps every node alive while it may still run.
  std::unordered_map<Node *, std::shared_ptr<Node>> owners;
  std::unordered_map<Node *, variable_list> buffers;
  const auto buffer_of = [&](const Edge &edge) -> Tensor & {
    Node *node = edge.function.get();
    owners.emplace(node, edge.function);
    variable_list &buffer = buffers[node];
    buffer.resize(node->num_outputs());
    return buffer[edge.input_nr];
  };
  std::priority_queue<Node *, std::vector<Node *>, LaterFirst> ready;
  std::unordered_set<Node *> queued;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (!roots[i].is_valid())
      continue;
    accumulate(buffer_of(roots[i]), root_grads[i]);
    Node *node = roots[i].function.get();
    if (dependencies[node] == 0 && queued.insert(node).second)
      ready.push(node);
  }

  variable_list captured(capture != nullptr ? capture->size() : 0);
  while (!ready.empty()) {
    Node *node = ready.top();
    ready.pop();
    variable_list grads = std::move(buffers[node]);
    grads.resize(node->num_outputs());
    store_retained(*node, grads);
    // autograd::grad returns gradients: it never writes a leaf's grad().
    const bool is_accumulator = node->next_edges.empty() && capture != nullptr;
    if (capture != nullptr) {
      for (std::size_t i = 0; i < capture->size(); ++i)
        if ((*capture)[i].function.get() == node)
          captured[i] = grads[(*capture)[i].input_nr];
    }
    bool any_defined = false;
    for (const Tensor &grad : grads)
      any_defined = any_defined || grad.defined();
    variable_list outputs;
    if (any_defined && !is_accumulator)
      outputs = node->apply(std::move(grads));
    if (!keep_graph)
      node->release_saved();
    outputs.resize(node->next_edges.size());
    for (std::size_t i = 0; i < node->next_edges.size(); ++i) {
      const Edge &edge = node->next_edges[i];
      if (!edge.is_valid())
        continue;
      if (outputs[i].defined())
        accumulate(buffer_of(edge), fit_to_input(*node, outputs[i], node->input_metas[i]));
      else
        owners.emplace(edge.function.get(), edge.function);
      if (--dependencies[edge.function.get()] == 0)
        ready.push(edge.function.get());
    }
    owners.erase(node);
  }
  return captured;
}

namespace {

variable_list root_gradients(const variable_list &tensors, const variable_list &grad_tensors,
                             const char *what) {
  PL_CHECK(grad_tensors.empty() || grad_tensors.size() == tensors.size(), Error, what, ": got ",
           tensors.size(), " tensors and ", grad_tensors.size(), " gradients");
  variable_list grads;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &tensor = tensors[i];
    detail::check_defined(what, "tensors", tensor);
    PL_CHECK(tensor.requires_grad(), Error, what, ": element ", i,
             " of tensors does not require grad and does not have a grad_fn");
    if (!grad_tensors.empty() && grad_tensors[i].defined()) {
      const Tensor &grad = grad_tensors[i];
      PL_CHECK(grad.sizes() == tensor.sizes(), ShapeError, what,
               ": mismatch in shape: grad_output[", i, "] has sizes ", grad.sizes().vec(),
               " and output[", i, "] has sizes ", tensor.sizes().vec());
      detail::common_device(what, {{"tensor", &tensor}, {"gradient", &grad}});
      grads.push_back(grad);
    } else {
      PL_CHECK(tensor.numel() == 1, Error, what,
               ": grad can be implicitly created only for scalar outputs, but the tensor has "
               "sizes ",
               tensor.sizes().vec());
      grads.push_back(pl::ones(tensor.sizes(), tensor.options()));
    }
  }
  return grads;
}

std::vector<Edge> root_edges(const variable_list &tensors) {
  std::vector<Edge> edges;
  for (const Tensor &tensor : tensors)
    edges.push_back(gradient_edge(tensor));
  return edges;
}

} // namespace

void backward(const variable_list &tensors, const variable_list &grad_tensors,
              std::optional<bool> retain_graph, bool create_graph) {
  PL_CHECK(!create_graph, Error,
           "backward: create_graph (higher-order gradients) is not supported by pl's autograd");
  run_backward(root_edges(tensors), root_gradients(tensors, grad_tensors, "backward"),
               retain_graph.value_or(create_graph), nullptr);
}

variable_list grad(const variable_list &outputs, const variable_list &inputs,
                   const variable_list &grad_outputs, std::optional<bool> retain_graph,
                   bool create_graph, bool allow_unused) {
  PL_CHECK(!create_graph, Error,
           "grad: create_graph (higher-order gradients) is not supported by pl's autograd");
  std::vector<Edge> capture;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    detail::check_defined("grad", "inputs", inputs[i]);
    PL_CHECK(inputs[i].requires_grad(), Error, "grad: input ", i, " does not require grad");
    capture.push_back(gradient_edge(inputs[i]));
  }
  variable_list result =
      run_backward(root_edges(outputs), root_gradients(outputs, grad_outputs, "grad"),
                   retain_graph.value_or(create_graph), &capture);
  for (std::size_t i = 0; i < result.size(); ++i) {
    PL_CHECK(allow_unused || result[i].defined(), Error, "grad: input ", i,
             " was not used in the graph of the outputs; pass allow_unused=true if this is "
             "what you want");
  }
  return result;
}

} // namespace pl::autograd
