// The op catalogue, <placelint/ops.def>, against the runtime's API: every
// name it lists is declared by <pl/pl.h> (a using-declaration of a name that
// does not exist does not compile), every operator it lists computes its op,
// and the elementwise ops follow their DTypes column.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <pl/pl.h>

#include "core/op_catalogue.h"
#include "test_support.h"

// PL_WHEN(x)(tokens...): the tokens when x is not empty, nothing when it is.
#define PL_CAT(a, b) PL_CAT_I(a, b)
#define PL_CAT_I(a, b) a##b
#define PL_WHEN(...) PL_CAT(PL_DROP, __VA_OPT__(_KEEP))
#define PL_DROP(...)
#define PL_DROP_KEEP(...) __VA_ARGS__

namespace declared {

// The methods and in-place methods, one class per entry (a class may not
// name a member twice); member operators (-t, t[i]) and the compound
// assignments of the Binary entries.
#define PL_OP(Name, Kind, Method, Function, InPlace, Operator, ...)                                \
  struct Name##Methods : pl::Tensor {                                                              \
    PL_WHEN(Method)(using pl::Tensor::Method;)                                                     \
    PL_WHEN(InPlace)(using pl::Tensor::InPlace;)                                                   \
    PL_WHEN(Operator)(using pl::Tensor::operator Operator;)                                        \
  };
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, ...)                         \
  struct Name##Methods : pl::Tensor {                                                              \
    using pl::Tensor::Method;                                                                      \
    using pl::Tensor::InPlace;                                                                     \
    PL_WHEN(Operator)(using pl::Tensor::operator Operator##=;)                                     \
  };
#include <placelint/ops.def>

// The free functions, and the free operators of the Binary entries.
#define PL_OP(Name, Kind, Method, Function, ...) PL_WHEN(Function)(using pl::Function;)
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, ...)                         \
  using pl::Function;                                                                              \
  PL_WHEN(Operator)(using pl::operator Operator;)
#include <placelint/ops.def>

} // namespace declared

namespace {

TEST(OpCatalogue, BinaryOperatorsComputeTheirOp) {
  const pl::Tensor a = pl::tensor({6.0, 8.0});
  const pl::Tensor b = pl::tensor({2.0, 4.0});
  const pl::Tensor two = pl::full({2}, 2.0);
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, ...)                         \
  PL_WHEN(Operator)({                                                                              \
    SCOPED_TRACE(#Operator);                                                                       \
    EXPECT_TRUE((a Operator b).equal(a.Method(b)));                                                \
    EXPECT_TRUE((a Operator 2.0).equal(a.Method(2.0)));                                            \
    EXPECT_TRUE((2.0 Operator b).equal(two.Method(b)));                                            \
    pl::Tensor c = a.clone();                                                                      \
    c Operator##= b;                                                                               \
    EXPECT_TRUE(c.equal(a.Method(b)));                                                             \
  })
#include <placelint/ops.def>
}

TEST(OpCatalogue, UnaryOperatorsComputeTheirOp) {
  const pl::Tensor a = pl::tensor({-1.0, 2.0});
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, Operator, ...)                          \
  PL_WHEN(Operator)(EXPECT_TRUE((Operator a).equal(a.Method())) << #Operator;)
#include <placelint/ops.def>
}

TEST(OpCatalogue, FreeFunctionsAndInPlaceFormsComputeTheMethod) {
  const pl::Tensor a = pl::tensor({0.5, 2.0});
  const pl::Tensor b = pl::tensor({4.0, 0.25});
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, ...)                                    \
  {                                                                                                \
    SCOPED_TRACE(#Method);                                                                         \
    EXPECT_TRUE(pl::Function(a).equal(a.Method()));                                                \
    pl::Tensor c = a.clone();                                                                      \
    EXPECT_TRUE(c.InPlace().is_same(c));                                                           \
    EXPECT_TRUE(c.equal(a.Method()));                                                              \
  }
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, ...)                                   \
  {                                                                                                \
    SCOPED_TRACE(#Method);                                                                         \
    EXPECT_TRUE(pl::Function(a, b).equal(a.Method(b)));                                            \
    EXPECT_TRUE(pl::Function(a, 3.0).equal(a.Method(3.0)));                                        \
    pl::Tensor c = a.clone();                                                                      \
    EXPECT_TRUE(c.InPlace(b).is_same(c));                                                          \
    EXPECT_TRUE(c.equal(a.Method(b)));                                                             \
  }
#include <placelint/ops.def>
}

// An elementwise op runs on the element types its DTypes column admits: a
// bool operand of a NotBool op is refused with its bool_error, named by the
// method or, in place, by the in-place method; a Floating op computes
// integers and bools as floats; the others keep their operands' type.
void expect_dtypes_followed(const char *method, const char *in_place, pl::ops::DTypes dtypes,
                            const char *bool_error,
                            const std::function<pl::Tensor(const pl::Tensor &)> &op,
                            const std::function<void(const pl::Tensor &)> &op_in_place) {
  SCOPED_TRACE(method);
  const pl::Tensor flags = pl::ones({2}, pl::kBool);
  const pl::Tensor counts = pl::ones({2}, pl::kLong);
  switch (dtypes) {
  case pl::ops::DTypes::NotBool:
    EXPECT_THROW_MESSAGE(op(flags), pl::DTypeError, std::string(method) + ": " + bool_error);
    EXPECT_THROW_MESSAGE(op_in_place(flags.clone()), pl::DTypeError,
                         std::string(in_place) + ": " + bool_error);
    EXPECT_EQ(op(counts).dtype(), pl::kLong);
    break;
  case pl::ops::DTypes::Floating:
    EXPECT_EQ(op(counts).dtype(), pl::kDefaultFloat);
    EXPECT_EQ(op(flags).dtype(), pl::kDefaultFloat);
    break;
  case pl::ops::DTypes::All:
    EXPECT_EQ(op(flags).dtype(), pl::kBool);
    EXPECT_EQ(op(counts).dtype(), pl::kLong);
    break;
  }
}

TEST(OpCatalogue, ElementwiseOpsRunOnTheDTypesTheirLineAdmits) {
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,        \
                    Backward, Dtypes, Saves, BoolError)                                            \
  expect_dtypes_followed(                                                                          \
      #Method, #InPlace, pl::ops::DTypes::Dtypes, BoolError,                                       \
      [](const pl::Tensor &t) { return t.Method(); }, [](const pl::Tensor &t) { t.InPlace(); });
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank,       \
                     Backward, Dtypes, BoolError)                                                  \
  expect_dtypes_followed(                                                                          \
      #Method, #InPlace, pl::ops::DTypes::Dtypes, BoolError,                                       \
      [](const pl::Tensor &t) { return t.Method(t); }, [](const pl::Tensor &t) { t.InPlace(t); });
#include <placelint/ops.def>
}

} // namespace
