// The autograd graph (after PyTorch's): AutogradMeta hangs off a TensorImpl
// that takes part in autograd; each recorded op leaves a Node whose edges
// point at the nodes that produced its inputs (or, for leaves, at their
// AccumulateGrad node). Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <source_location>
#include <vector>

#include <pl/autograd.h>
#include <pl/tensor.h>

namespace pl::autograd {

struct Node;

// Where a gradient goes: input `input_nr` of `function`; no function means
// the input needs no gradient.
struct Edge {
  std::shared_ptr<Node> function;
  std::uint32_t input_nr = 0;
  bool is_valid() const noexcept { return function != nullptr; }
};

// What an input looked like when the op ran: the engine reduces a gradient
// to these sizes (broadcasting), this dtype and this device before passing
// it on, so that the backward formulas need not.
struct InputMeta {
  std::vector<std::int64_t> sizes;
  ScalarType dtype = kDefaultFloat;
  Device device = Device(kCPU);
};

// A tensor a backward formula needs, saved as a detached alias (so that an
// output saved by its own grad_fn makes no reference cycle) with the
// version of its storage at the time. Unpacking it after an in-place write
// to that storage, or after the graph was freed, throws.
class SavedTensor {
public:
  SavedTensor() = default;
  explicit SavedTensor(const Tensor &tensor);
  Tensor unpack(const char *node_name) const;
  void release() noexcept;

private:
  Tensor data_;
  std::uint32_t version_ = 0;
  bool was_saved_ = false;
};

struct Node {
  Node();
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  virtual const char *name() const = 0;
  // One gradient per output in; one per next edge out (undefined: none).
  // Runs with grad mode off.
  virtual variable_list apply(variable_list &&grads) = 0;
  // Frees the saved tensors once the graph has been run (retain_graph off).
  virtual void release_saved() {}
  virtual std::size_t num_outputs() const { return 1; }

  // Set once, when the node is recorded: the edges to the inputs' producers
  // and what those inputs looked like.
  void set_next_edges(std::vector<Edge> edges, std::vector<InputMeta> metas);

  std::vector<Edge> next_edges;
  std::vector<InputMeta> input_metas;
  // Later nodes run first when several are ready (as PyTorch orders them).
  std::uint64_t sequence_nr;
  // Outputs that retain_grad(): the engine stores their gradient.
  struct RetainedOutput {
    std::uint32_t output_nr;
    std::weak_ptr<TensorImpl> tensor;
  };
  std::vector<RetainedOutput> retained_outputs;
};

struct AutogradMeta {
  // Set by the user on a leaf; a non-leaf requires grad through its grad_fn.
  bool requires_grad = false;
  bool retains_grad = false;
  // Made by a view op of a tensor that requires grad: in-place ops on it
  // are refused (pl does not rebase a view's base).
  bool is_view = false;
  std::uint32_t output_nr = 0;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  // A leaf's AccumulateGrad node, weakly: the graph owns it.
  std::weak_ptr<Node> grad_accumulator;
  // placement-non-leaf-parameter: this non-leaf is a requires-grad leaf
  // moved by to/cuda/cpu at `moved_at`, from `moved_from`.
  std::optional<std::source_location> moved_at;
  Device moved_from = Device(kCPU);
};

// ---- the graph's bookkeeping, used by the recording hooks and the engine ----
AutogradMeta &materialize_meta(const Tensor &tensor);
// The edge a gradient for `tensor` flows along: its grad_fn, its leaf's
// AccumulateGrad, or none.
Edge gradient_edge(const Tensor &tensor);
InputMeta input_meta(const Tensor &tensor);
// Makes `out` the output of `node` (output 0).
void set_history(const Tensor &out, const std::shared_ptr<Node> &node);
// The gradient of a broadcast: summed over the dims `sizes` was expanded in.
Tensor sum_to(const Tensor &grad, IntArrayRef sizes);
// Runs the graph from `roots` with their gradients. When `capture` is given,
// returns the gradients reaching those edges instead of accumulating into
// leaves.
variable_list run_backward(const std::vector<Edge> &roots, variable_list root_grads,
                           bool keep_graph, const std::vector<Edge> *capture);

} // namespace pl::autograd
