// Printing, and value comparison (equal, allclose). Both read the values on
// the host through a contiguous copy; that copy is not a user transfer and
// is not seen by the transfer guard.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/dispatch.h"
#include "core/internal.h"

namespace pl {
namespace {

// A contiguous host copy of t (t itself when it already is one).
Tensor host_copy(const Tensor &tensor) {
  const Tensor contiguous = tensor.contiguous();
  const TensorImpl &impl = *contiguous.impl();
  if (impl.device.is_cpu())
    return contiguous;
  Tensor host = detail::make_tensor(impl.sizes, impl.dtype, Device(kCPU));
  if (impl.numel > 0)
    detail::backend_of(impl.device)
        .copy_to_host(host.data_ptr(), contiguous.data_ptr(), impl.device.index(), host.nbytes(),
                      /*non_blocking=*/false);
  detail::note_blocking_copy(impl.device);
  return host;
}

// The host values as doubles (exact for every Float, Double and Bool value,
// and for Long values up to 2^53).
std::vector<double> host_values(const Tensor &tensor) {
  const Tensor host = host_copy(tensor);
  std::vector<double> values(static_cast<std::size_t>(host.numel()));
  backend::visit_dtype(host.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *data = static_cast<const T *>(host.data_ptr());
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<double>(data[i]);
  });
  return values;
}

std::string format_value(const Tensor &host, std::int64_t index, bool integral_values,
                         int precision) {
  return backend::visit_dtype(host.dtype(), [&](auto tag) -> std::string {
    using T = decltype(tag);
    const T value = static_cast<const T *>(host.data_ptr())[index];
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(value))
        return "nan";
      if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
      char text[64];
      if (integral_values)
        std::snprintf(text, sizeof text, "%.0f", static_cast<double>(value));
      else
        std::snprintf(text, sizeof text, "%.*f", precision, static_cast<double>(value));
      return text;
    } else {
      return std::to_string(static_cast<std::int64_t>(value));
    }
  });
}

const char *type_prefix(DeviceType type) {
  switch (type) {
  case DeviceType::CPU:
    return "CPU";
  case DeviceType::CUDA:
    return "CUDA";
  case DeviceType::Sim:
    return "Sim";
  }
  return "?";
}

} // namespace

std::ostream &operator<<(std::ostream &os, const Tensor &tensor) {
  if (!tensor.defined())
    return os << "[ Tensor (undefined) ]";
  if (tensor.is_cpu())
    detail::guard_host_read("operator<<", *tensor.impl()->storage);
  const Tensor host = host_copy(tensor);
  const std::int64_t numel = host.numel();
  // Floating values that are all whole numbers print without decimals, as
  // in libtorch.
  bool integral_values = true;
  if (host.is_floating_point()) {
    for (double value : host_values(host))
      if (std::isfinite(value) && value != std::floor(value))
        integral_values = false;
  }
  std::vector<std::string> cells(static_cast<std::size_t>(numel));
  std::size_t width = 0;
  for (std::int64_t i = 0; i < numel; ++i) {
    cells[static_cast<std::size_t>(i)] = format_value(host, i, integral_values, 4);
    width = std::max(width, cells[static_cast<std::size_t>(i)].size());
  }
  const auto pad = [&](const std::string &cell) {
    return std::string(width + 1 - cell.size(), ' ') + cell;
  };
  const IntArrayRef sizes = host.sizes();
  if (sizes.empty()) {
    os << cells[0] << '\n';
  } else if (sizes.size() == 1) {
    for (const std::string &cell : cells)
      os << pad(cell) << '\n';
  } else {
    // Matrices over the last two dims, each headed by its leading indices.
    const std::int64_t rows = sizes[sizes.size() - 2];
    const std::int64_t cols = sizes.back();
    const std::int64_t matrices = rows * cols == 0 ? 0 : numel / (rows * cols);
    for (std::int64_t m = 0; m < matrices; ++m) {
      if (sizes.size() > 2) {
        std::int64_t rest = m;
        std::vector<std::int64_t> index(sizes.size() - 2);
        for (std::size_t d = index.size(); d-- > 0;) {
          index[d] = rest % sizes[d];
          rest /= sizes[d];
        }
        os << (m == 0 ? "(" : "\n(");
        for (std::int64_t i : index)
          os << i << ',';
        os << ".,.) = \n";
      }
      for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c)
          os << pad(cells[static_cast<std::size_t>((m * rows + r) * cols + c)]);
        os << '\n';
      }
    }
  }
  os << "[ " << type_prefix(tensor.device().type()) << tensor.dtype() << "Type{";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    os << (i == 0 ? "" : ",") << sizes[i];
  os << '}';
  if (!tensor.is_cpu())
    os << " on " << tensor.device();
  return os << " ]";
}

bool Tensor::equal(const Tensor &other) const {
  detail::common_device(ops::OpId::Equal, {{"self", this}, {"other", &other}});
  if (sizes() != other.sizes())
    return false;
  if (!is_floating_point() && !other.is_floating_point()) {
    // Integers compare exactly, beyond the 2^53 a double holds.
    const Tensor a = host_copy(detail::cast(*this, ScalarType::Long));
    const Tensor b = host_copy(detail::cast(other, ScalarType::Long));
    return std::equal(a.data_ptr<std::int64_t>(), a.data_ptr<std::int64_t>() + a.numel(),
                      b.data_ptr<std::int64_t>());
  }
  return host_values(*this) == host_values(other);
}

bool Tensor::allclose(const Tensor &other, double rtol, double atol) const {
  detail::common_device(ops::OpId::Allclose, {{"self", this}, {"other", &other}});
  const char *op = ops::name(ops::OpId::Allclose);
  const auto sizes = detail::broadcast_sizes(op, this->sizes(), other.sizes());
  PL_CHECK(IntArrayRef(sizes) == this->sizes() && IntArrayRef(sizes) == other.sizes(), ShapeError,
           op, ": sizes ", this->sizes(), " and ", other.sizes(), " differ");
  const auto x = host_values(*this);
  const auto y = host_values(other);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] == y[i])
      continue; // also equal infinities
    if (!(std::fabs(x[i] - y[i]) <= atol + rtol * std::fabs(y[i])))
      return false;
  }
  return true;
}

} // namespace pl
