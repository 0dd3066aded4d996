// ScalarType: the element types of a tensor, and PyTorch's promotion lattice
// for them (bool < long < float < double).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

namespace pl {

enum class ScalarType : std::int8_t { Bool = 0, Long = 1, Float = 2, Double = 3 };

inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kInt64 = ScalarType::Long;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kFloat32 = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kFloat64 = ScalarType::Double;

// The dtype of tensors created without one and of floating C++ scalars.
inline constexpr ScalarType kDefaultFloat = ScalarType::Float;

constexpr std::size_t element_size(ScalarType type) {
  switch (type) {
  case ScalarType::Bool:
    return sizeof(bool);
  case ScalarType::Long:
    return sizeof(std::int64_t);
  case ScalarType::Float:
    return sizeof(float);
  case ScalarType::Double:
    return sizeof(double);
  }
  return 0;
}

constexpr bool is_floating_type(ScalarType type) {
  return type == ScalarType::Float || type == ScalarType::Double;
}

constexpr bool is_integral_type(ScalarType type, bool include_bool) {
  return type == ScalarType::Long || (include_bool && type == ScalarType::Bool);
}

// The smallest type both convert to without loss of category; for these four
// types the lattice is a chain, so it is the larger one.
constexpr ScalarType promote_types(ScalarType a, ScalarType b) {
  return static_cast<std::int8_t>(a) >= static_cast<std::int8_t>(b) ? a : b;
}

// "Bool", "Long", "Float", "Double" (libtorch's spelling).
std::string_view scalar_type_name(ScalarType type);
std::ostream &operator<<(std::ostream &os, ScalarType type);

// The C++ type of each ScalarType, and back.
template <class T> struct ScalarTypeOf;
template <> struct ScalarTypeOf<bool> { static constexpr ScalarType value = ScalarType::Bool; };
template <> struct ScalarTypeOf<std::int64_t> {
  static constexpr ScalarType value = ScalarType::Long;
};
template <> struct ScalarTypeOf<float> { static constexpr ScalarType value = ScalarType::Float; };
template <> struct ScalarTypeOf<double> { static constexpr ScalarType value = ScalarType::Double; };

} // namespace pl
