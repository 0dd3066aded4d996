// Scalar: a C++ number taking part in a tensor operation (t * 2, t + 0.5).
// Like c10::Scalar it remembers whether it was a bool, an integer or a
// floating value, which matters for type promotion.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <type_traits>

#include <pl/scalar_type.h>

namespace pl {

class Scalar {
public:
  enum class Kind : std::int8_t { Bool, Integral, Floating };

  /* implicit */ Scalar(bool value) : kind_(Kind::Bool), integral_(value) {}
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  /* implicit */ Scalar(T value)
      : kind_(Kind::Integral), integral_(static_cast<std::int64_t>(value)) {}
  template <class T>
    requires std::is_floating_point_v<T>
  /* implicit */ Scalar(T value) : kind_(Kind::Floating), floating_(static_cast<double>(value)) {}

  Kind kind() const noexcept { return kind_; }
  bool isBoolean() const noexcept { return kind_ == Kind::Bool; }
  bool isIntegral(bool include_bool) const noexcept {
    return kind_ == Kind::Integral || (include_bool && kind_ == Kind::Bool);
  }
  bool isFloatingPoint() const noexcept { return kind_ == Kind::Floating; }

  // The dtype this scalar has when it takes part in promotion as a C++
  // number: bool -> Bool, integer -> Long, floating -> the default Float.
  ScalarType promotion_type() const noexcept;

  template <class T> T to() const {
    if (kind_ == Kind::Floating)
      return static_cast<T>(floating_);
    return static_cast<T>(integral_);
  }
  double toDouble() const { return to<double>(); }
  std::int64_t toLong() const { return to<std::int64_t>(); }
  bool toBool() const { return kind_ == Kind::Floating ? floating_ != 0.0 : integral_ != 0; }

private:
  Kind kind_;
  std::int64_t integral_ = 0;
  double floating_ = 0.0;
};

std::ostream &operator<<(std::ostream &os, const Scalar &scalar);

} // namespace pl
