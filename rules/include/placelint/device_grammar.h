// The device-string grammar, the one both halves parse with, over the
// device catalogue <placelint/devices.def>:
//   cpu | cuda | cuda:N | sim | sim:N
// N is a decimal index without sign or leading zeros that fits in int16_t.
// A type without an index means "the current device of that type" (-1). A
// type the catalogue marks NoIndex (the cpu) takes no index. Header-only and
// free of dependencies so that the runtime (pl::Device) and the analyzer
// (string literals such as t.to("cuda:1")) accept exactly the same strings.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace placelint {

enum class DeviceKind : std::int8_t {
#define PL_DEVICE_TYPE(Enumerator, Spelling, Index) Enumerator,
#include <placelint/devices.def>
#undef PL_DEVICE_TYPE
};

// One line of devices.def.
struct DeviceTypeEntry {
  DeviceKind kind;
  std::string_view enumerator; // "CUDA": the API's constant is kCUDA
  std::string_view spelling;   // "cuda"
  bool indexed;
};

inline constexpr DeviceTypeEntry kDeviceTypes[] = {
#define PL_DEVICE_TYPE_INDEX_Indexed true
#define PL_DEVICE_TYPE_INDEX_NoIndex false
#define PL_DEVICE_TYPE(Enumerator, Spelling, Index)                                                \
  {DeviceKind::Enumerator, #Enumerator, Spelling, PL_DEVICE_TYPE_INDEX_##Index},
#include <placelint/devices.def>
#undef PL_DEVICE_TYPE
#undef PL_DEVICE_TYPE_INDEX_NoIndex
#undef PL_DEVICE_TYPE_INDEX_Indexed
};

constexpr const DeviceTypeEntry &deviceTypeEntry(DeviceKind Kind) {
  return kDeviceTypes[static_cast<std::size_t>(Kind)];
}

constexpr std::string_view deviceKindName(DeviceKind Kind) {
  return deviceTypeEntry(Kind).spelling;
}

// The device type spelled Name ("cuda"), if the catalogue has one.
constexpr const DeviceTypeEntry *deviceTypeNamed(std::string_view Name) {
  for (const DeviceTypeEntry &Entry : kDeviceTypes)
    if (Entry.spelling == Name)
      return &Entry;
  return nullptr;
}

enum class DeviceParseError : std::int8_t {
  None,
  UnknownType,
  IndexNotTaken, // on a type the catalogue marks NoIndex
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

// Why a string was rejected, as the tail of "invalid device string 'x': ...".
constexpr std::string_view deviceParseErrorText(DeviceParseError Error) {
  switch (Error) {
  case DeviceParseError::None:
    return "";
  case DeviceParseError::UnknownType:
    return "unknown device type";
  case DeviceParseError::IndexNotTaken:
    return "device takes no index"; // after the type: "the cpu device takes no index"
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

// What the grammar accepts, from the catalogue: "expected cpu, cuda, cuda:N,
// sim or sim:N, with N a non-negative decimal index without leading zeros".
inline std::string deviceGrammarText() {
  std::string Alternatives;
  std::size_t Count = 0;
  for (const DeviceTypeEntry &Entry : kDeviceTypes)
    Count += Entry.indexed ? 2 : 1;
  std::size_t Written = 0;
  auto Append = [&](std::string_view Part, std::string_view Suffix) {
    if (Written > 0)
      Alternatives += Written + 1 == Count ? " or " : ", ";
    Alternatives.append(Part).append(Suffix);
    ++Written;
  };
  for (const DeviceTypeEntry &Entry : kDeviceTypes) {
    Append(Entry.spelling, "");
    if (Entry.indexed)
      Append(Entry.spelling, ":N");
  }
  return "expected " + Alternatives +
         ", with N a non-negative decimal index without leading zeros";
}

constexpr ParsedDevice parseDevice(std::string_view Text) {
  ParsedDevice Result;
  const std::size_t Colon = Text.find(':');
  const DeviceTypeEntry *Type = deviceTypeNamed(Text.substr(0, Colon));
  if (Type == nullptr)
    return {Result.kind, -1, DeviceParseError::UnknownType};
  Result.kind = Type->kind;
  if (Colon == std::string_view::npos)
    return Result;
  if (!Type->indexed)
    return {Result.kind, -1, DeviceParseError::IndexNotTaken};
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
