// The runtime's view of the op catalogue, <placelint/ops.def> (its header
// says what each field means): op ids, the names users write, the backward
// node names, where each op's operands must be, and for the elementwise ops
// the element types their kernels run on and what their backward formulas
// save. Plain data, so that the CUDA sources can include it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <type_traits>

#include "core/backend.h"

namespace pl::ops {

enum class OpId : std::uint8_t {
#define PL_OP(Name, ...) Name,
#include <placelint/ops.def>
};

// An op's name in messages (its method's, else its free function's), its
// in-place method's ("" when none) and its autograd node's ("" when none).
struct OpNames {
  const char *name;
  const char *in_place;
  const char *backward;
};

inline constexpr OpNames kOpNames[] = {
#define PL_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank, Backward)    \
  {sizeof(#Method) > 1 ? #Method : #Function, #InPlace, Backward},
#include <placelint/ops.def>
};

constexpr const OpNames &names(OpId op) { return kOpNames[static_cast<std::size_t>(op)]; }
// The name in messages: the in-place method's for the in-place form.
constexpr const char *name(OpId op, bool in_place = false) {
  return in_place ? names(op).in_place : names(op).name;
}
constexpr const char *backward_name(OpId op) { return names(op).backward; }

// Where an op's tensor operands must be (ops.def's Devices).
enum class Devices : std::uint8_t { SameDevice, SameDeviceStrict, OneTensor, NoTensor, AnyDevice };

inline constexpr Devices kOpDevices[] = {
#define PL_OP(Name, Kind, Method, Function, InPlace, Operator, DevicesRule, ...)                    \
  Devices::DevicesRule,
#include <placelint/ops.def>
};

constexpr Devices devices(OpId op) { return kOpDevices[static_cast<std::size_t>(op)]; }

// The element types an elementwise kernel runs on (ops.def's DTypes).
enum class DTypes : std::uint8_t { All, NotBool, Floating };

template <class T> constexpr bool admits(DTypes dtypes) {
  switch (dtypes) {
  case DTypes::All:
    return true;
  case DTypes::NotBool:
    return !std::is_same_v<T, bool>;
  case DTypes::Floating:
    return std::is_floating_point_v<T>;
  }
  return false;
}

// What a unary op's backward formula reads (ops.def's Saves).
enum class Saves : std::uint8_t { Nothing, Input, Result };

struct ElementwiseOp {
  const char *name;     // in messages: the method ("add"), or the kernel's name
  const char *in_place; // the in-place method's ("add_"), "" for a kernel only
  DTypes dtypes;
  const char *bool_error; // the DTypeError's text for a bool operand (NotBool)
  Saves saves;            // unary ops only
  const char *backward;   // the node's name; "" for a kernel only
};

inline constexpr ElementwiseOp kUnaryOps[] = {
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,        \
                    Backward, Dtypes, Saved, BoolError)                                            \
  {#Method, #InPlace, DTypes::Dtypes, BoolError, Saves::Saved, Backward},
#include <placelint/ops.def>
};

inline constexpr ElementwiseOp kBinaryOps[] = {
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,       \
                     Backward, Dtypes, BoolError)                                                  \
  {#Method, #InPlace, DTypes::Dtypes, BoolError, Saves::Nothing, Backward},
#define PL_BINARY_KERNEL(Name, OpName, Dtypes)                                                     \
  {#OpName, "", DTypes::Dtypes, "", Saves::Nothing, ""},
#include <placelint/ops.def>
};

// The op of a binary kernel that the API exposes: the BinaryOps before the
// PL_BINARY_KERNEL entries (which no API exposes, so they come last).
inline constexpr OpId kBinaryOpIds[] = {
#define PL_BINARY_OP(Name, ...) OpId::Name,
#include <placelint/ops.def>
};

inline constexpr bool kIsBinaryKernel[] = {
#define PL_BINARY_OP(...) false,
#define PL_BINARY_KERNEL(...) true,
#include <placelint/ops.def>
};
constexpr bool binary_kernels_come_last() {
  bool kernel_seen = false;
  for (const bool is_kernel : kIsBinaryKernel) {
    if (kernel_seen && !is_kernel)
      return false;
    kernel_seen = is_kernel;
  }
  return true;
}
static_assert(binary_kernels_come_last(),
              "ops.def: the PL_BINARY_KERNEL entries come after every PL_BINARY_OP");

// Only for the BinaryOps an API exposes (not the PL_BINARY_KERNEL entries).
constexpr OpId id(backend::BinaryOp op) { return kBinaryOpIds[static_cast<std::size_t>(op)]; }

inline constexpr OpId kUnaryOpIds[] = {
#define PL_UNARY_OP(Name, ...) OpId::Name,
#include <placelint/ops.def>
};
constexpr OpId id(backend::UnaryOp op) { return kUnaryOpIds[static_cast<std::size_t>(op)]; }

// The kernel op an elementwise op runs (the inverse of id()); nullopt for
// an op that is not a PL_BINARY_OP (PL_UNARY_OP).
constexpr std::optional<backend::BinaryOp> binary_op(OpId op) {
  for (std::size_t i = 0; i < std::size(kBinaryOpIds); ++i)
    if (kBinaryOpIds[i] == op)
      return static_cast<backend::BinaryOp>(i);
  return std::nullopt;
}
constexpr std::optional<backend::UnaryOp> unary_op(OpId op) {
  for (std::size_t i = 0; i < std::size(kUnaryOpIds); ++i)
    if (kUnaryOpIds[i] == op)
      return static_cast<backend::UnaryOp>(i);
  return std::nullopt;
}

constexpr const ElementwiseOp &info(backend::UnaryOp op) {
  return kUnaryOps[static_cast<std::size_t>(op)];
}
constexpr const ElementwiseOp &info(backend::BinaryOp op) {
  return kBinaryOps[static_cast<std::size_t>(op)];
}

} // namespace pl::ops
