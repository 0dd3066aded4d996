#include <pl/scalar.h>
#include <pl/scalar_type.h>

#include <ostream>

namespace pl {

std::string_view scalar_type_name(ScalarType type) {
  switch (type) {
  case ScalarType::Bool:
    return "Bool";
  case ScalarType::Long:
    return "Long";
  case ScalarType::Float:
    return "Float";
  case ScalarType::Double:
    return "Double";
  }
  return "Unknown";
}

std::ostream &operator<<(std::ostream &os, ScalarType type) { return os << scalar_type_name(type); }

ScalarType Scalar::promotion_type() const noexcept {
  switch (kind_) {
  case Kind::Bool:
    return ScalarType::Bool;
  case Kind::Integral:
    return ScalarType::Long;
  case Kind::Floating:
    return kDefaultFloat;
  }
  return kDefaultFloat;
}

std::ostream &operator<<(std::ostream &os, const Scalar &scalar) {
  switch (scalar.kind()) {
  case Scalar::Kind::Bool:
    return os << (scalar.toBool() ? "true" : "false");
  case Scalar::Kind::Integral:
    return os << scalar.toLong();
  case Scalar::Kind::Floating:
    return os << scalar.toDouble();
  }
  return os;
}

} // namespace pl
