// Grad mode: one flag per thread, read only when an operand is tracked.
#include <pl/autograd.h>

namespace pl {
namespace {

thread_local bool grad_mode_enabled = true;

} // namespace

bool GradMode::is_enabled() noexcept { return grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) noexcept { grad_mode_enabled = enabled; }

} // namespace pl
