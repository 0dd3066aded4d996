// Exceptions of the runtime, and the two checking macros.
//
// PL_CHECK is for anything a user can cause (a bad device, shape, dtype,
// index): it throws a typed pl::Error subclass with a clear message.
// PL_ASSERT is for internal invariants ("cannot happen"): it aborts with the
// failed condition, because continuing would compute garbage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pl {

class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Operands of one operation live on different devices (placement-mixed-device).
class DeviceMismatchError : public Error {
public:
  using Error::Error;
};

// Sizes that do not fit the operation (broadcasting, view, matmul, cat, ...).
class ShapeError : public Error {
public:
  using Error::Error;
};

// A dtype the operation does not support, or a result that cannot be cast.
class DTypeError : public Error {
public:
  using Error::Error;
};

// A dimension or element index out of range.
class IndexError : public Error {
public:
  using Error::Error;
};

// A malformed device string, or a device that does not exist in this build or
// on this machine (placement-unguarded-cuda for CUDA).
class DeviceError : public Error {
public:
  using Error::Error;
};

// The transfer guard, at level Disallow, found a redundant transfer
// (placement-transfer-in-loop).
class TransferGuardError : public Error {
public:
  using Error::Error;
};

// A backend could not allocate the memory asked for.
class AllocationError : public Error {
public:
  using Error::Error;
};

namespace detail {

template <class T> void stream_part(std::ostream &os, const T &part) { os << part; }
// Sizes and strides print as [2, 3].
inline void stream_part(std::ostream &os, const std::vector<std::int64_t> &values) {
  os << '[';
  for (std::size_t i = 0; i < values.size(); ++i)
    os << (i == 0 ? "" : ", ") << values[i];
  os << ']';
}

// Out of line and cold so that the check at the call site stays one branch.
template <class ErrorT, class... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void fail(const Parts &...parts) {
  std::ostringstream message;
  (stream_part(message, parts), ...);
  throw ErrorT(message.str());
}

[[noreturn, gnu::cold]] void assertion_failed(const char *condition, const char *file, int line,
                                              const char *function) noexcept;

} // namespace detail
} // namespace pl

// PL_CHECK(condition, ErrorType, message parts...): throws ErrorType with the
// parts streamed together when the condition is false.
#define PL_CHECK(condition, ErrorType, ...)                                                        \
  do {                                                                                             \
    if (!(condition)) [[unlikely]]                                                                 \
      ::pl::detail::fail<ErrorType>(__VA_ARGS__);                                                  \
  } while (false)

// PL_ASSERT(condition): an internal invariant; aborts with a diagnostic.
#define PL_ASSERT(condition)                                                                       \
  do {                                                                                             \
    if (!(condition)) [[unlikely]]                                                                 \
      ::pl::detail::assertion_failed(#condition, __FILE__, __LINE__, __func__);                    \
  } while (false)
