// The device-string grammar, the one both halves parse with:
//   cpu | cuda | cuda:N | sim | sim:N
// N is a decimal index without sign or leading zeros that fits in int16_t.
// A type without an index means "the current device of that type" (-1). The
// cpu takes no index. Header-only and free of dependencies so that the
// runtime (pl::Device) and the analyzer (string literals such as
// t.to("cuda:1")) accept exactly the same strings.
#pragma once

#include <cstdint>
#include <string_view>

namespace placelint {

enum class DeviceKind : std::int8_t { CPU, CUDA, Sim };

enum class DeviceParseError : std::int8_t {
  None,
  UnknownType,
  IndexOnCpu,
  MissingIndex,
  LeadingZero,
  NotADecimalIndex,
  IndexOutOfRange,
};

struct ParsedDevice {
  DeviceKind kind = DeviceKind::CPU;
  std::int16_t index = -1; // -1: the current device of that kind
  DeviceParseError error = DeviceParseError::None;

  constexpr bool ok() const { return error == DeviceParseError::None; }
};

constexpr std::string_view deviceKindName(DeviceKind Kind) {
  switch (Kind) {
  case DeviceKind::CPU:
    return "cpu";
  case DeviceKind::CUDA:
    return "cuda";
  case DeviceKind::Sim:
    return "sim";
  }
  return "cpu";
}

// Why a string was rejected, as the tail of "invalid device string 'x': ...".
constexpr std::string_view deviceParseErrorText(DeviceParseError Error) {
  switch (Error) {
  case DeviceParseError::None:
    return "";
  case DeviceParseError::UnknownType:
    return "unknown device type";
  case DeviceParseError::IndexOnCpu:
    return "the cpu device takes no index";
  case DeviceParseError::MissingIndex:
    return "missing index after ':'";
  case DeviceParseError::LeadingZero:
    return "leading zero in index";
  case DeviceParseError::NotADecimalIndex:
    return "index is not a non-negative decimal number";
  case DeviceParseError::IndexOutOfRange:
    return "index out of range";
  }
  return "";
}

inline constexpr std::string_view kDeviceGrammar =
    "expected cpu, cuda, cuda:N, sim or sim:N, with N a non-negative decimal index "
    "without leading zeros";

constexpr ParsedDevice parseDevice(std::string_view Text) {
  ParsedDevice Result;
  const std::size_t Colon = Text.find(':');
  const std::string_view Name = Text.substr(0, Colon);
  if (Name == "cpu")
    Result.kind = DeviceKind::CPU;
  else if (Name == "cuda")
    Result.kind = DeviceKind::CUDA;
  else if (Name == "sim")
    Result.kind = DeviceKind::Sim;
  else
    return {Result.kind, -1, DeviceParseError::UnknownType};
  if (Colon == std::string_view::npos)
    return Result;
  if (Result.kind == DeviceKind::CPU)
    return {Result.kind, -1, DeviceParseError::IndexOnCpu};
  const std::string_view Digits = Text.substr(Colon + 1);
  if (Digits.empty())
    return {Result.kind, -1, DeviceParseError::MissingIndex};
  if (Digits.size() > 1 && Digits.front() == '0')
    return {Result.kind, -1, DeviceParseError::LeadingZero};
  int Value = 0;
  for (char C : Digits) {
    if (C < '0' || C > '9')
      return {Result.kind, -1, DeviceParseError::NotADecimalIndex};
    Value = Value * 10 + (C - '0');
    if (Value > INT16_MAX)
      return {Result.kind, -1, DeviceParseError::IndexOutOfRange};
  }
  Result.index = static_cast<std::int16_t>(Value);
  return Result;
}

} // namespace placelint
