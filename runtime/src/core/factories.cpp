// Factories and the random generator.
#include <cmath>
#include <cstring>
#include <mutex>
#include <random>

#include <optional>

#include <pl/factories.h>

#include "core/internal.h"

namespace pl {
namespace {

std::mutex &generator_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::mt19937_64 &generator() {
  static std::mt19937_64 engine(5489u);
  return engine;
}

// Uploads host doubles as a tensor of dtype on device.
Tensor from_host_doubles(const std::vector<double> &values, IntArrayRef sizes, ScalarType dtype,
                         Device device) {
  return detail::tensor_from_host(values.data(), static_cast<std::int64_t>(values.size()),
                                  ScalarType::Double, false, TensorOptions(device).dtype(dtype),
                                  std::source_location::current())
      .view(sizes);
}

std::int64_t element_count(IntArrayRef sizes) {
  std::int64_t count = 1;
  for (std::int64_t size : sizes) {
    PL_CHECK(size >= 0, ShapeError, "negative dimension ", size, " in sizes ", sizes);
    count *= size;
  }
  return count;
}

} // namespace

namespace detail {

Tensor host_factory_result(Tensor made, const TensorOptions &options, SourceLocation loc) {
  if (!options.has_device())
    made.impl()->storage->mark_fresh_from_host_factory(loc);
  return with_requires_grad(std::move(made), options);
}

Tensor with_requires_grad(Tensor made, const TensorOptions &options) {
  if (options.requires_grad())
    made.requires_grad_(true);
  return made;
}

Tensor tensor_from_host(const void *values, std::int64_t count, ScalarType type, bool zero_dim,
                        TensorOptions options, SourceLocation loc) {
  const Device device = resolve_device(options.device(), loc);
  const std::vector<std::int64_t> sizes =
      zero_dim ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{count};
  // Wrap the caller's values, convert on the host, then move once.
  Tensor host = make_tensor(sizes, type, Device(kCPU));
  if (count > 0)
    std::memcpy(host.data_ptr(), values, static_cast<std::size_t>(count) * element_size(type));
  Tensor converted = cast(host, options.dtype_opt().value_or(type));
  if (device.is_cpu())
    return host_factory_result(pinned_if_requested(converted, options, loc), options, loc);
  if (options.pinned_memory())
    check_pinnable(ops::name(ops::OpId::MakeTensor), device);
  Tensor out = make_tensor(sizes, converted.dtype(), device);
  if (count > 0) {
    backend_of(device).copy_from_host(out.data_ptr(), device.index(), converted.data_ptr(),
                                      converted.nbytes(), false);
    note_blocking_copy(device);
  }
  return with_requires_grad(std::move(out), options);
}

} // namespace detail

Tensor empty(IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  const char *op = ops::name(ops::OpId::Empty);
  const Device device = detail::resolve_device(options.device(), loc);
  if (options.pinned_memory()) {
    detail::check_pinnable(op, device);
    return detail::host_factory_result(
        detail::make_pinned_tensor(sizes, options.dtype(), detail::pinned_memory_accelerator(), loc), options,
        loc);
  }
  return detail::host_factory_result(detail::make_tensor(sizes, options.dtype(), device), options,
                                     loc);
}

Tensor zeros(IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  Tensor out = empty(sizes, options, loc);
  detail::fill_values(*out.impl(), 0);
  return detail::host_factory_result(out, options, loc);
}

Tensor ones(IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  Tensor out = empty(sizes, options, loc);
  detail::fill_values(*out.impl(), 1);
  return detail::host_factory_result(out, options, loc);
}

Tensor full(IntArrayRef sizes, const Scalar &fill_value, TensorOptions options,
            SourceLocation loc) {
  if (!options.has_dtype())
    options = options.dtype(fill_value.promotion_type());
  Tensor out = empty(sizes, options, loc);
  detail::fill_values(*out.impl(), fill_value);
  return detail::host_factory_result(out, options, loc);
}

Tensor scalar_tensor(const Scalar &value, TensorOptions options, SourceLocation loc) {
  return full({}, value, options.has_dtype() ? options : options.dtype(kDefaultFloat), loc);
}

Tensor arange(const Scalar &end, TensorOptions options, SourceLocation loc) {
  return arange(0, end, 1, options, loc);
}

Tensor arange(const Scalar &start, const Scalar &end, TensorOptions options, SourceLocation loc) {
  return arange(start, end, 1, options, loc);
}

Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step, TensorOptions options,
              SourceLocation loc) {
  const char *op = ops::name(ops::OpId::Arange);
  const double first = start.toDouble();
  const double last = end.toDouble();
  const double increment = step.toDouble();
  PL_CHECK(increment != 0.0, Error, op, ": step must be nonzero");
  PL_CHECK(std::isfinite(first) && std::isfinite(last), Error,
           op, ": start and end must be finite, but got ", start, " and ", end);
  PL_CHECK((increment > 0 && last >= first) || (increment < 0 && last <= first), Error,
           op, ": upper bound and larger bound inconsistent with step sign (start ", start,
           ", end ", end, ", step ", step, ")");
  const bool integral = start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true);
  if (!options.has_dtype())
    options = options.dtype(integral ? kLong : kDefaultFloat);
  const auto count = static_cast<std::int64_t>(std::ceil((last - first) / increment));
  PL_CHECK(count <= (std::int64_t{1} << 40), AllocationError, op, ": ", count,
           " elements is too many");
  std::vector<double> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    values[static_cast<std::size_t>(i)] = first + static_cast<double>(i) * increment;
  const Device device = detail::resolve_device(options.device(), loc);
  return detail::host_factory_result(
      detail::pinned_if_requested(from_host_doubles(values, {count}, options.dtype(), device),
                                  options, loc),
      options, loc);
}

Tensor randn(IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  const char *op = ops::name(ops::OpId::Randn);
  const Device device = detail::resolve_device(options.device(), loc);
  PL_CHECK(is_floating_type(options.dtype()), DTypeError,
           op, ": expects a floating dtype, but got ", options.dtype());
  std::vector<double> values(static_cast<std::size_t>(element_count(sizes)));
  {
    std::lock_guard lock(generator_mutex());
    std::normal_distribution<double> normal(0.0, 1.0);
    for (double &value : values)
      value = normal(generator());
  }
  return detail::host_factory_result(
      detail::pinned_if_requested(from_host_doubles(values, sizes, options.dtype(), device),
                                  options, loc),
      options, loc);
}

Tensor rand(IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  const char *op = ops::name(ops::OpId::Rand);
  const Device device = detail::resolve_device(options.device(), loc);
  PL_CHECK(is_floating_type(options.dtype()), DTypeError,
           op, ": expects a floating dtype, but got ", options.dtype());
  std::vector<double> values(static_cast<std::size_t>(element_count(sizes)));
  {
    std::lock_guard lock(generator_mutex());
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (double &value : values)
      value = uniform(generator());
  }
  return detail::host_factory_result(
      detail::pinned_if_requested(from_host_doubles(values, sizes, options.dtype(), device),
                                  options, loc),
      options, loc);
}

void manual_seed(std::uint64_t seed) {
  std::lock_guard lock(generator_mutex());
  generator().seed(seed);
}

namespace {

// Without explicit strides, the blob is contiguous.
Tensor wrap_blob(void *data, IntArrayRef sizes, std::optional<IntArrayRef> explicit_strides,
                 std::function<void(void *)> deleter, TensorOptions options, SourceLocation loc) {
  const char *op = ops::name(ops::OpId::FromBlob);
  const Device device = detail::resolve_device(options.device(), loc);
  PL_CHECK(sizes.size() <= static_cast<std::size_t>(backend::kMaxDims), ShapeError,
           op, ": tensors have at most ", backend::kMaxDims, " dimensions");
  PL_CHECK(!explicit_strides.has_value() || explicit_strides->size() == sizes.size(), ShapeError,
           op, ": ", sizes.size(), " sizes but ", explicit_strides->size(), " strides");
  const DimVector strides = explicit_strides.has_value() ? DimVector(*explicit_strides)
                                                         : detail::contiguous_strides(sizes);
  PL_CHECK(data != nullptr || element_count(sizes) == 0, Error,
           op, ": data is null for a non-empty tensor");
  std::int64_t extent = 1; // elements spanned: 1 + sum (size-1)*stride
  std::int64_t numel = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    PL_CHECK(sizes[i] >= 0 && strides[i] >= 0, ShapeError,
             op, ": sizes and strides must be non-negative");
    numel *= sizes[i];
    extent += (sizes[i] - 1) * strides[i];
  }
  const std::size_t nbytes =
      numel == 0 ? 0 : static_cast<std::size_t>(extent) * element_size(options.dtype());
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<StorageImpl>(device, data, nbytes, std::move(deleter));
  impl->device = device;
  impl->dtype = options.dtype();
  impl->sizes = sizes;
  impl->strides = strides;
  impl->numel = numel;
  return detail::with_requires_grad(Tensor(std::move(impl)), options);
}

} // namespace

Tensor from_blob(void *data, IntArrayRef sizes, TensorOptions options, SourceLocation loc) {
  return wrap_blob(data, sizes, std::nullopt, {}, options, loc);
}

Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options,
                 SourceLocation loc) {
  return wrap_blob(data, sizes, strides, {}, options, loc);
}

Tensor from_blob(void *data, IntArrayRef sizes, std::function<void(void *)> deleter,
                 TensorOptions options, SourceLocation loc) {
  return wrap_blob(data, sizes, std::nullopt, std::move(deleter), options, loc);
}

} // namespace pl
