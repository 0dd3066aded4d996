#include "core/autograd_hooks.h"

#include <algorithm>

namespace pl::detail {
namespace {

// Set once while the library loads, before any op can meet a tracked tensor.
const AutogradHooks *registered_hooks = nullptr;

} // namespace

bool is_tracked(TensorList tensors) noexcept {
  return std::any_of(tensors.begin(), tensors.end(),
                     [](const Tensor &tensor) { return is_tracked(tensor); });
}

const AutogradHooks &autograd_hooks() noexcept {
  PL_ASSERT(registered_hooks != nullptr);
  return *registered_hooks;
}

void set_autograd_hooks(const AutogradHooks &hooks) noexcept { registered_hooks = &hooks; }

} // namespace pl::detail
