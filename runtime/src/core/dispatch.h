// The one dispatch from runtime values to kernel instantiations, shared by
// the host kernels and the CUDA kernels:
//
//   visit_dtype(t, [&](auto tag) { using T = decltype(tag); ... });
//     calls f with a value of the C++ element type of a ScalarType, so a
//     generic lambda instantiates once per dtype;
//   visit_unary_op<T>(op, [&](auto functor) { ... });
//   visit_binary_op<T>(op, [&](auto functor) { ... });
//     call f with the functor of an elementwise op (functors::Exp{} for
//     UnaryOp::Exp), instantiated only for the element types T that the op's
//     DTypes column in <placelint/ops.def> admits: the front end dispatches
//     no other, so no kernel is built that could never run.
#pragma once

#include <cstdint>

#include <pl/error.h>
#include <pl/scalar_type.h>

#include "core/backend.h"
#include "core/functors.h"
#include "core/op_catalogue.h"

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

// One case of the switches below: Op::Name runs functors::Name where Dtypes
// admits T.
#define PL_DISPATCH_CASE(Op, Name, Dtypes)                                                         \
  case Op::Name:                                                                                   \
    if constexpr (ops::admits<T>(ops::DTypes::Dtypes))                                             \
      return f(functors::Name{});                                                                  \
    break;

template <class T, class F> void visit_unary_op(UnaryOp op, F &&f) {
  switch (op) {
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,        \
                    Backward, Dtypes, ...)                                                         \
  PL_DISPATCH_CASE(UnaryOp, Name, Dtypes)
#include <placelint/ops.def>
  }
  PL_ASSERT(false && "unary op dispatched for a dtype the front end rejects");
}

template <class T, class F> void visit_binary_op(BinaryOp op, F &&f) {
  switch (op) {
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,       \
                     Backward, Dtypes, ...)                                                        \
  PL_DISPATCH_CASE(BinaryOp, Name, Dtypes)
#define PL_BINARY_KERNEL(Name, OpName, Dtypes) PL_DISPATCH_CASE(BinaryOp, Name, Dtypes)
#include <placelint/ops.def>
  }
  PL_ASSERT(false && "binary op dispatched for a dtype the front end rejects");
}

#undef PL_DISPATCH_CASE

} // namespace pl::backend
