// Tensor factories, as in libtorch. A factory given a device allocates on it
// directly; asking for a device that does not exist throws pl::DeviceError
// naming the call site (placement-unguarded-cuda for CUDA).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <source_location>
#include <type_traits>
#include <vector>

#include <pl/array_ref.h>
#include <pl/scalar.h>
#include <pl/tensor.h>
#include <pl/tensor_options.h>

namespace pl {

using SourceLocation = std::source_location;

Tensor empty(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor zeros(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor ones(IntArrayRef sizes, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
// Without a dtype in options, the dtype of fill_value (bool, long or float).
Tensor full(IntArrayRef sizes, const Scalar &fill_value, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
Tensor scalar_tensor(const Scalar &value, TensorOptions options = {},
                     SourceLocation loc = SourceLocation::current());

// [start, end) by step; long when all of them are integers, float otherwise.
Tensor arange(const Scalar &end, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current());
Tensor arange(const Scalar &start, const Scalar &end, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current());
Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step,
              TensorOptions options = {}, SourceLocation loc = SourceLocation::current());

// Random values from the process-wide generator (see manual_seed), drawn on
// the host, so a seed gives the same values on every device.
Tensor randn(IntArrayRef sizes, TensorOptions options = {},
             SourceLocation loc = SourceLocation::current());
Tensor rand(IntArrayRef sizes, TensorOptions options = {},
            SourceLocation loc = SourceLocation::current());
void manual_seed(std::uint64_t seed);

// Wraps memory the caller owns (on options.device(), cpu by default) without
// copying; the memory must outlive every view. `deleter` runs when the last
// view goes away.
Tensor from_blob(void *data, IntArrayRef sizes, TensorOptions options = {},
                 SourceLocation loc = SourceLocation::current());
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {},
                 SourceLocation loc = SourceLocation::current());
Tensor from_blob(void *data, IntArrayRef sizes, std::function<void(void *)> deleter,
                 TensorOptions options = {}, SourceLocation loc = SourceLocation::current());

namespace detail {
// Builds a 1-D (or 0-dim when `zero_dim`) tensor from host values of `type`.
Tensor tensor_from_host(const void *values, std::int64_t count, ScalarType type, bool zero_dim,
                        TensorOptions options, SourceLocation loc);

template <class T> constexpr ScalarType literal_dtype() {
  if constexpr (std::is_same_v<T, bool>)
    return kBool;
  else if constexpr (std::is_floating_point_v<T>)
    return kDefaultFloat;
  else
    return kLong;
}

template <class T>
Tensor tensor_from_values(const T *values, std::int64_t count, bool zero_dim, TensorOptions options,
                          SourceLocation loc) {
  static_assert(std::is_arithmetic_v<T>, "pl::tensor takes arithmetic values");
  if (!options.has_dtype())
    options = options.dtype(literal_dtype<T>());
  std::vector<double> as_double;
  std::vector<std::int64_t> as_long;
  std::vector<char> as_bool;
  if constexpr (std::is_same_v<T, bool>) {
    as_bool.assign(values, values + count);
    return tensor_from_host(as_bool.data(), count, kBool, zero_dim, options, loc);
  } else if constexpr (std::is_floating_point_v<T>) {
    as_double.assign(values, values + count);
    return tensor_from_host(as_double.data(), count, kDouble, zero_dim, options, loc);
  } else {
    as_long.assign(values, values + count);
    return tensor_from_host(as_long.data(), count, kLong, zero_dim, options, loc);
  }
}
} // namespace detail

// pl::tensor({1.0, 2.0}) (Float), pl::tensor({1, 2}) (Long),
// pl::tensor({true}) (Bool), pl::tensor(2.0) (0-dim Float).
template <class T>
  requires std::is_arithmetic_v<T>
Tensor tensor(std::initializer_list<T> values, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current()) {
  return detail::tensor_from_values(values.begin(), static_cast<std::int64_t>(values.size()), false,
                                    options, loc);
}
template <class T>
  requires std::is_arithmetic_v<T>
Tensor tensor(const std::vector<T> &values, TensorOptions options = {},
              SourceLocation loc = SourceLocation::current()) {
  if constexpr (std::is_same_v<T, bool>) {
    const std::vector<char> bytes(values.begin(), values.end());
    return detail::tensor_from_host(bytes.data(), static_cast<std::int64_t>(bytes.size()), kBool,
                                    false, options.has_dtype() ? options : options.dtype(kBool),
                                    loc);
  } else {
    return detail::tensor_from_values(values.data(), static_cast<std::int64_t>(values.size()),
                                      false, options, loc);
  }
}
template <class T>
  requires std::is_arithmetic_v<T>
Tensor tensor(T value, TensorOptions options = {}, SourceLocation loc = SourceLocation::current()) {
  return detail::tensor_from_values(&value, 1, true, options, loc);
}

} // namespace pl
