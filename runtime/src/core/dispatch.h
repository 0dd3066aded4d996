// visit_dtype: calls f with a value of the C++ element type of a ScalarType,
// so a generic lambda instantiates once per dtype:
//   visit_dtype(t, [&](auto tag) { using T = decltype(tag); ... });
#pragma once

#include <cstdint>

#include <pl/error.h>
#include <pl/scalar_type.h>

namespace pl::backend {

template <class F> decltype(auto) visit_dtype(ScalarType type, F &&f) {
  switch (type) {
  case ScalarType::Bool:
    return f(bool{});
  case ScalarType::Long:
    return f(std::int64_t{});
  case ScalarType::Float:
    return f(float{});
  case ScalarType::Double:
    return f(double{});
  }
  PL_ASSERT(false && "unknown ScalarType");
  return f(float{});
}

} // namespace pl::backend
