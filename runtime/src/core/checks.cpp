// The front end's validation: defined operands, dims, broadcasting, devices
// and dtype promotion. Hot paths stay short; the messages are built out of
// line, only when a check fails.
#include <algorithm>

#include <placelint/rule_ids.h>

#include "core/internal.h"

namespace pl::detail {

void check_defined(std::string_view op, std::string_view name, const Tensor &tensor) {
  if (!tensor.defined()) [[unlikely]]
    undefined_operand_error(op, name);
}

std::int64_t wrap_dim(std::string_view op, std::int64_t dim, std::int64_t ndim) {
  const std::int64_t extent = std::max<std::int64_t>(ndim, 1);
  PL_CHECK(dim >= -extent && dim < extent, IndexError, op,
           ": dimension out of range (expected to be in range of [", -extent, ", ", extent - 1,
           "], but got ", dim, ")");
  return dim < 0 ? dim + extent : dim;
}

DimVector broadcast_sizes(std::string_view op, IntArrayRef a, IntArrayRef b) {
  const std::size_t ndim = std::max(a.size(), b.size());
  DimVector out(ndim, 0);
  for (std::size_t i = 0; i < ndim; ++i) {
    const std::int64_t sa = i < ndim - a.size() ? 1 : a[i - (ndim - a.size())];
    const std::int64_t sb = i < ndim - b.size() ? 1 : b[i - (ndim - b.size())];
    PL_CHECK(sa == sb || sa == 1 || sb == 1, ShapeError, op, ": the size of tensor a (", sa,
             ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
             " (shapes ", a, " and ", b, " do not broadcast)");
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

void mixed_device_error(std::string_view op, std::string_view first_name, Device first,
                        std::string_view other_name, Device other) {
  fail<DeviceMismatchError>(PL_RULE_ID_MixedDevice ": ", op,
                            ": expected all tensors on the same device, but '", first_name,
                            "' is on ", first, " and '", other_name, "' is on ", other);
}

void undefined_operand_error(std::string_view op, std::string_view name) {
  fail<Error>(op, ": '", name, "' is an undefined tensor");
}

Device mixed_common_device(ops::OpId op, ArrayRef<NamedTensor> operands, bool in_place) {
  const ops::Devices rule = ops::devices(op);
  PL_ASSERT(rule == ops::Devices::SameDevice || rule == ops::Devices::SameDeviceStrict);
  // PyTorch's TensorIterator rule (SameDevice): a 0-dim cpu input follows
  // the other operands.
  const auto is_allowed_scalar = [&](const NamedTensor &operand, int position) {
    return rule == ops::Devices::SameDevice && !(in_place && position == 0) &&
           is_cpu_scalar(*operand.tensor->impl());
  };
  // The anchor is the first operand that fixes the device: not a cpu scalar
  // input (those may join any device).
  const NamedTensor *anchor = operands.begin();
  int position = 0;
  for (const NamedTensor &operand : operands) {
    if (!is_allowed_scalar(operand, position++)) {
      anchor = &operand;
      break;
    }
  }
  const Device device = anchor->tensor->impl()->device;
  bool scalar_used = false;
  position = 0;
  for (const NamedTensor &operand : operands) {
    const int current = position++;
    if (&operand == anchor || operand.tensor->impl()->device == device)
      continue;
    if (!scalar_used && is_allowed_scalar(operand, current)) {
      scalar_used = true;
      continue;
    }
    mixed_device_error(ops::name(op, in_place), anchor->name, device, operand.name,
                       operand.tensor->impl()->device);
  }
  return device;
}

// ---- promotion -------------------------------------------------------------------

namespace {

ScalarType promote_optional(std::optional<ScalarType> a, ScalarType b) {
  return a ? promote_types(*a, b) : b;
}

// c10's combine_categories: a lower-priority group raises the result only
// when it is of a higher category (bool < integral < floating).
std::optional<ScalarType> combine_categories(std::optional<ScalarType> higher,
                                             std::optional<ScalarType> lower) {
  if (!higher)
    return lower;
  if (!lower)
    return higher;
  if (is_floating_type(*higher))
    return higher;
  if (*higher == ScalarType::Bool || is_floating_type(*lower))
    return promote_types(*higher, *lower);
  return higher;
}

} // namespace

void ResultTypeState::add(const TensorImpl &tensor) {
  if (tensor.sizes.empty())
    zero_dim = promote_optional(zero_dim, tensor.dtype);
  else
    dimensioned = promote_optional(dimensioned, tensor.dtype);
}

void ResultTypeState::add(const Scalar &scalar) {
  wrapped = promote_optional(wrapped, scalar.promotion_type());
}

ScalarType ResultTypeState::result() const {
  const auto result = combine_categories(dimensioned, combine_categories(zero_dim, wrapped));
  PL_ASSERT(result.has_value());
  return *result;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && !is_floating_type(to))
    return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool)
    return false;
  return true;
}

} // namespace pl::detail
