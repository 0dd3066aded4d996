// Elementwise ops on every device against reference loops: broadcasting,
// scalars, type promotion, in-place forms and the version counter.
#include <cmath>
#include <functional>
#include <limits>

#include "core/internal.h"

#include "test_support.h"

namespace {

using pl_test::make;
using pl_test::OnDevice;
using pl_test::values;

std::vector<double> ramp(std::int64_t n, double start, double step) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = start + step * static_cast<double>(i);
  return v;
}

// out[i] = op(a[bcast i], b[bcast i]) over the broadcast shape.
std::vector<double> reference_binary(const std::vector<double> &a,
                                     const std::vector<std::int64_t> &a_shape,
                                     const std::vector<double> &b,
                                     const std::vector<std::int64_t> &b_shape,
                                     const std::vector<std::int64_t> &out_shape,
                                     const std::function<double(double, double)> &op) {
  std::int64_t n = 1;
  for (auto s : out_shape)
    n *= s;
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto index = pl_test::unravel(i, out_shape);
    out[static_cast<std::size_t>(i)] =
        op(a[static_cast<std::size_t>(pl_test::broadcast_index(index, a_shape))],
           b[static_cast<std::size_t>(pl_test::broadcast_index(index, b_shape))]);
  }
  return out;
}

class Elementwise : public OnDevice {};

TEST_P(Elementwise, BinaryOpsBroadcastLikeTheReference) {
  const std::vector<std::int64_t> a_shape{2, 1, 3};
  const std::vector<std::int64_t> b_shape{4, 1};
  const auto a_values = ramp(6, -1.5, 0.75);
  const auto b_values = ramp(4, 0.5, 1.25);
  const pl::Tensor a = make(a_values, a_shape, device());
  const pl::Tensor b = make(b_values, b_shape, device());
  const std::vector<std::int64_t> out_shape{2, 4, 3};
  struct Case {
    pl::Tensor result;
    std::function<double(double, double)> op;
  };
  const std::vector<Case> cases = {{a + b, std::plus<>()},
                                   {a - b, std::minus<>()},
                                   {a * b, std::multiplies<>()},
                                   {a / b, std::divides<>()},
                                   {pl::add(a, b), std::plus<>()},
                                   {a.sub(b), std::minus<>()},
                                   {pl::mul(a, b), std::multiplies<>()},
                                   {a.div(b), std::divides<>()}};
  for (const Case &c : cases) {
    EXPECT_EQ(pl_test::sizes(c.result), out_shape);
    EXPECT_EQ(c.result.device(), device());
    EXPECT_EQ(c.result.dtype(), pl::kFloat);
    const auto expected = reference_binary(a_values, a_shape, b_values, b_shape, out_shape, c.op);
    const auto actual = values(c.result);
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
      EXPECT_FLOAT_EQ(actual[i], expected[i]) << "element " << i;
  }
}

TEST_P(Elementwise, LargeTensorsTakeTheThreadedPathAndStayExact) {
  const std::int64_t n = 1 << 18; // above the parallel grain
  const pl::Tensor a = pl::arange(n, pl::TensorOptions(device()).dtype(pl::kDouble));
  const pl::Tensor b = pl::full({n}, 2.0, pl::TensorOptions(device()).dtype(pl::kDouble));
  const auto result = values(a * b + 1);
  for (std::int64_t i = 0; i < n; i += 4099)
    EXPECT_EQ(result[static_cast<std::size_t>(i)], 2.0 * static_cast<double>(i) + 1.0);
  EXPECT_EQ(result.back(), 2.0 * static_cast<double>(n - 1) + 1.0);
  // A strided (transposed) large operand goes through the strided loops.
  const pl::Tensor m =
      pl::arange(n, pl::TensorOptions(device()).dtype(pl::kDouble)).view({512, 512});
  const auto transposed = values(m.t() + 0);
  EXPECT_EQ(transposed[1], 512.0);
  EXPECT_EQ(transposed[512 * 3 + 5], 5.0 * 512 + 3);
}

TEST_P(Elementwise, ScalarsOnEitherSide) {
  const pl::Tensor a = make({1, 2, 4}, {3}, device());
  EXPECT_EQ(values(a + 1), (std::vector<double>{2, 3, 5}));
  EXPECT_EQ(values(1 + a), (std::vector<double>{2, 3, 5}));
  EXPECT_EQ(values(a - 1), (std::vector<double>{0, 1, 3}));
  EXPECT_EQ(values(10 - a), (std::vector<double>{9, 8, 6}));
  EXPECT_EQ(values(a * 2.5), (std::vector<double>{2.5, 5, 10}));
  EXPECT_EQ(values(2.5 * a), (std::vector<double>{2.5, 5, 10}));
  EXPECT_EQ(values(a / 2), (std::vector<double>{0.5, 1, 2}));
  EXPECT_EQ(values(8 / a), (std::vector<double>{8, 4, 2}));
  EXPECT_EQ(values(pl::rsub(a, 1)), (std::vector<double>{0, -1, -3}));
  EXPECT_EQ(values(pl::rdiv(a, 4)), (std::vector<double>{4, 2, 1}));
  EXPECT_EQ((a + 1).device(), device());
}

TEST_P(Elementwise, PromotionFollowsPyTorch) {
  const pl::TensorOptions on(device());
  const pl::Tensor f = pl::ones({2}, on.dtype(pl::kFloat));
  const pl::Tensor d = pl::ones({2}, on.dtype(pl::kDouble));
  const pl::Tensor l = pl::ones({2}, on.dtype(pl::kLong));
  const pl::Tensor b = pl::ones({2}, on.dtype(pl::kBool));
  EXPECT_EQ((f + d).dtype(), pl::kDouble);
  EXPECT_EQ((l + f).dtype(), pl::kFloat);
  EXPECT_EQ((l + l).dtype(), pl::kLong);
  EXPECT_EQ((b + l).dtype(), pl::kLong);
  EXPECT_EQ((b + b).dtype(), pl::kBool);
  EXPECT_EQ((b * b).dtype(), pl::kBool);
  // Integer division is true division.
  EXPECT_EQ((l / l).dtype(), pl::kFloat);
  EXPECT_EQ(values(pl::tensor({7, 2}, on) / 2), (std::vector<double>{3.5, 1}));
  // C++ scalars: integers keep the tensor's type, floats lift integers to Float.
  EXPECT_EQ((l * 2).dtype(), pl::kLong);
  EXPECT_EQ((l * 2.5).dtype(), pl::kFloat);
  EXPECT_EQ((f * 2.5).dtype(), pl::kFloat);
  EXPECT_EQ((b + 1).dtype(), pl::kLong);
  EXPECT_EQ((b + true).dtype(), pl::kBool);
  // A 0-dim tensor does not widen a dimensioned one of the same category...
  EXPECT_EQ((f + pl::tensor(1.0, on.dtype(pl::kDouble))).dtype(), pl::kFloat);
  EXPECT_EQ((l + pl::tensor(std::int64_t{1}, on)).dtype(), pl::kLong);
  // ...but lifts it to a higher category.
  EXPECT_EQ((l + pl::tensor(1.5, on.dtype(pl::kDouble))).dtype(), pl::kDouble);
  // Two 0-dim tensors promote normally.
  EXPECT_EQ((pl::tensor(1.0, on) + pl::tensor(1.0, on.dtype(pl::kDouble))).dtype(), pl::kDouble);
}

TEST_P(Elementwise, BoolArithmeticIsLogical) {
  const pl::TensorOptions on(device());
  const pl::Tensor t = pl::tensor({true, true, false, false}, on);
  const pl::Tensor u = pl::tensor({true, false, true, false}, on);
  EXPECT_EQ(values(t + u), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(values(t * u), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_THROW_CONTAINING(t - u, pl::DTypeError, "sub: subtraction of two bool values");
  EXPECT_THROW_CONTAINING(-t, pl::DTypeError, "neg: negation of a bool tensor");
  EXPECT_THROW_CONTAINING(t.relu(), pl::DTypeError, "relu: not supported for bool tensors");
}

TEST_P(Elementwise, UnaryOpsMatchTheMathLibrary) {
  const std::vector<double> input{-2.0, -0.5, 0.0, 0.25, 3.0};
  const pl::Tensor t = make(input, {5}, device(), pl::kDouble);
  const auto exp = values(t.exp());
  const auto relu = values(pl::relu(t));
  const auto neg = values(-t);
  const auto log = values(pl::log(t.exp()));
  for (std::size_t i = 0; i < input.size(); ++i) {
    EXPECT_DOUBLE_EQ(exp[i], std::exp(input[i]));
    EXPECT_EQ(relu[i], input[i] < 0 ? 0.0 : input[i]);
    EXPECT_EQ(neg[i], -input[i]);
    EXPECT_NEAR(log[i], input[i], 1e-12);
  }
  const auto log_of_zero_and_negative = values(make({0.0, -1.0}, {2}, device()).log());
  EXPECT_TRUE(std::isinf(log_of_zero_and_negative[0]) && log_of_zero_and_negative[0] < 0);
  EXPECT_TRUE(std::isnan(log_of_zero_and_negative[1]));
  EXPECT_TRUE(std::isnan(values(make({NAN}, {1}, device()).relu())[0]));
  // exp and log of integers compute in Float.
  EXPECT_EQ(pl::tensor({1, 2}, pl::TensorOptions(device())).exp().dtype(), pl::kFloat);
}

TEST_P(Elementwise, SqrtMatchesTheMathLibrary) {
  const std::vector<double> input{0.0, 0.25, 2.0, 9.0};
  const pl::Tensor t = make(input, {4}, device(), pl::kDouble);
  const auto root = values(t.sqrt());
  for (std::size_t i = 0; i < input.size(); ++i)
    EXPECT_DOUBLE_EQ(root[i], std::sqrt(input[i]));
  EXPECT_EQ(values(pl::sqrt(t)), root);
  pl::Tensor in_place = t.clone();
  EXPECT_TRUE(in_place.sqrt_().is_same(in_place));
  EXPECT_EQ(values(in_place), root);
  EXPECT_TRUE(std::isnan(values(make({-1.0}, {1}, device()).sqrt())[0]));
  // Integers compute in Float, as for exp and log, which an in-place sqrt_
  // cannot write back.
  const pl::Tensor longs = pl::tensor({4, 9}, pl::TensorOptions(device()));
  EXPECT_EQ(values(longs.sqrt()), (std::vector<double>{2, 3}));
  EXPECT_EQ(longs.sqrt().dtype(), pl::kFloat);
  EXPECT_THROW_CONTAINING(longs.sqrt_(), pl::DTypeError,
                          "sqrt_: result type Float can't be cast to the desired output type Long");
}

TEST_P(Elementwise, InPlaceOpsWriteIntoSelfAndReturnIt) {
  pl::Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3}, device());
  const pl::Tensor row = make({10, 20, 30}, {3}, device());
  pl::Tensor &same = a.add_(row);
  EXPECT_TRUE(same.is_same(a));
  EXPECT_EQ(values(a), (std::vector<double>{11, 22, 33, 14, 25, 36}));
  a -= row;
  EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  a *= 2;
  a /= make({2}, {1}, device());
  EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  a.mul_(row).div_(10).sub_(1).add_(1);
  EXPECT_EQ(values(a), (std::vector<double>{1, 4, 9, 4, 10, 18}));
  a.neg_().relu_();
  EXPECT_EQ(values(a), (std::vector<double>(6, 0.0)));
  a.fill_(0).exp_();
  EXPECT_EQ(values(a), (std::vector<double>(6, 1.0)));
  a.log_();
  EXPECT_EQ(values(a), (std::vector<double>(6, 0.0)));
  a.fill_(5).zero_();
  EXPECT_EQ(values(a), (std::vector<double>(6, 0.0)));
}

TEST_P(Elementwise, InPlaceWritesThroughViews) {
  const pl::Tensor base = pl::zeros({2, 3}, device());
  base.t().add_(make({1, 2}, {2}, device())); // column view: broadcast over rows of the transpose
  EXPECT_EQ(values(base), (std::vector<double>{1, 1, 1, 2, 2, 2}));
  base.select(0, 1).fill_(7);
  EXPECT_EQ(values(base), (std::vector<double>{1, 1, 1, 7, 7, 7}));
}

TEST_P(Elementwise, InPlaceWithAnOverlappingOperandReadsTheOldValues) {
  const pl::Tensor m = make({1, 2, 3, 4}, {2, 2}, device());
  m.add_(m.t());
  EXPECT_EQ(values(m), (std::vector<double>{2, 5, 5, 8}));
  const pl::Tensor v = make({1, 2, 3}, {3}, device());
  v.mul_(v);
  EXPECT_EQ(values(v), (std::vector<double>{1, 4, 9}));
}

TEST_P(Elementwise, InPlaceKeepsSelfDtypeOrRefusesTheCast) {
  const pl::TensorOptions on(device());
  const pl::Tensor f = pl::ones({2}, on);
  f.add_(pl::ones({2}, on.dtype(pl::kDouble)));
  EXPECT_EQ(f.dtype(), pl::kFloat);
  EXPECT_EQ(values(f), (std::vector<double>{2, 2}));
  f.add_(pl::ones({2}, on.dtype(pl::kLong)));
  EXPECT_EQ(values(f), (std::vector<double>{3, 3}));
  const pl::Tensor l = pl::ones({2}, on.dtype(pl::kLong));
  EXPECT_THROW_MESSAGE(l.add_(f), pl::DTypeError,
                       "add_: result type Float can't be cast to the desired output type Long");
  EXPECT_THROW_MESSAGE(l.mul_(2.5), pl::DTypeError,
                       "mul_: result type Float can't be cast to the desired output type Long");
  EXPECT_THROW_MESSAGE(l.div_(2), pl::DTypeError,
                       "div_: result type Float can't be cast to the desired output type Long");
  EXPECT_THROW_MESSAGE(l.exp_(), pl::DTypeError,
                       "exp_: result type Float can't be cast to the desired output type Long");
  const pl::Tensor b = pl::ones({2}, on.dtype(pl::kBool));
  EXPECT_THROW_CONTAINING(b.add_(l), pl::DTypeError, "result type Long can't be cast");
  EXPECT_EQ(values(l), (std::vector<double>{1, 1})) << "a refused op writes nothing";
}

TEST_P(Elementwise, InPlaceCannotGrowSelf) {
  const pl::Tensor a = pl::zeros({3}, device());
  EXPECT_THROW_MESSAGE(a.add_(pl::ones({2, 3}, device())), pl::ShapeError,
                       "add_: output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST_P(Elementwise, IncompatibleShapesAreAShapeError) {
  const pl::Tensor a = pl::ones({2, 3}, device());
  const pl::Tensor b = pl::ones({4}, device());
  EXPECT_THROW_MESSAGE(a + b, pl::ShapeError,
                       "add: the size of tensor a (3) must match the size of tensor b (4) at "
                       "non-singleton dimension 1 (shapes [2, 3] and [4] do not broadcast)");
}

TEST_P(Elementwise, EveryInPlaceWriteBumpsTheVersionSharedByViews) {
  const pl::Tensor a = pl::zeros({2, 2}, device());
  const pl::Tensor view = a.view({4});
  const auto start = a._version();
  EXPECT_EQ(view._version(), start);
  a.add_(1);
  EXPECT_EQ(a._version(), start + 1);
  view.mul_(2);
  a += pl::ones({2}, device());
  a.fill_(3);
  a.zero_();
  a.relu_();
  a.copy_(pl::ones({2, 2}));
  EXPECT_EQ(a._version(), start + 7);
  EXPECT_EQ(view._version(), a._version());
  const auto before = a._version();
  (void)(a + 1);
  (void)a.view({4});
  (void)a.sum();
  EXPECT_EQ(a._version(), before) << "reads and views do not bump the version";
  EXPECT_EQ(pl::zeros({1})._version(), 0u);
}

TEST_P(Elementwise, EmptyTensorsGiveEmptyResults) {
  const pl::Tensor empty = pl::zeros({0, 3}, device());
  EXPECT_EQ(pl_test::sizes(empty + pl::ones({3}, device())), (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ((empty * 2).numel(), 0);
  EXPECT_EQ(empty.exp().numel(), 0);
  empty.add_(1);
}

TEST_P(Elementwise, EqualMaskIsOneWhereEqualWithInfinitiesAndNaNsEqualToThemselves) {
  // The mask of max()'s gradient (an internal op: pl has no public eq yet).
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const pl::Tensor a = make({inf, -inf, nan, 1, 2}, {5}, device());
  const pl::Tensor b = make({inf, -inf, nan, nan, 3}, {5}, device());
  EXPECT_THAT(values(pl::detail::equal_mask(a, b)), ::testing::ElementsAre(1, 1, 1, 0, 0));
  const pl::Tensor positions = pl::arange(3, pl::device(device()));
  const pl::Tensor index = make({2, 0}, {2, 1}, device(), pl::kLong);
  EXPECT_THAT(values(pl::detail::equal_mask(positions, index)),
              ::testing::ElementsAre(0, 0, 1, 1, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(Devices, Elementwise, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace

namespace {

TEST(Threads, SetNumThreadsLimitsTheKernelsAndKeepsResults) {
  const int initial = pl::get_num_threads();
  EXPECT_GE(initial, 1);
  pl::set_num_threads(1);
  EXPECT_EQ(pl::get_num_threads(), 1);
  const std::int64_t n = 1 << 17;
  const pl::Tensor a = pl::arange(n, pl::kDouble);
  const auto doubled = pl_test::values(a + a);
  EXPECT_EQ(doubled.back(), 2.0 * static_cast<double>(n - 1));
  EXPECT_EQ(pl::matmul(pl::ones({4, 8}), pl::ones({8, 2})).sum().item<float>(), 64.0f);
  pl::set_num_threads(1000);
  EXPECT_EQ(pl::get_num_threads(), initial) << "never more than the pool has";
  EXPECT_THROW_MESSAGE(pl::set_num_threads(0), pl::Error,
                       "set_num_threads: expected a positive number of threads, but got 0");
  pl::set_num_threads(initial);
}

} // namespace
