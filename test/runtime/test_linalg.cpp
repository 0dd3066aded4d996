// matmul / mm / linear against a reference triple loop; cat and stack.
#include "test_support.h"

namespace {

using pl_test::make;
using pl_test::OnDevice;
using pl_test::sizes;
using pl_test::values;
using Sizes = std::vector<std::int64_t>;

std::vector<double> reference_mm(const std::vector<double> &a, const std::vector<double> &b,
                                 std::int64_t m, std::int64_t k, std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t p = 0; p < k; ++p)
        c[static_cast<std::size_t>(i * n + j)] +=
            a[static_cast<std::size_t>(i * k + p)] * b[static_cast<std::size_t>(p * n + j)];
  return c;
}

std::vector<double> ramp(std::int64_t n, double scale) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = scale * static_cast<double>((i * 7) % 11 - 5);
  return v;
}

void expect_near(const std::vector<double> &actual, const std::vector<double> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-4) << "element " << i;
}

class Linalg : public OnDevice {};

TEST_P(Linalg, MmMatchesTheReferenceInFloatAndDouble) {
  const auto a = ramp(3 * 5, 0.5);
  const auto b = ramp(5 * 4, 0.25);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor c = make(a, {3, 5}, device(), dtype).mm(make(b, {5, 4}, device(), dtype));
    EXPECT_EQ(sizes(c), (Sizes{3, 4}));
    EXPECT_EQ(c.dtype(), dtype);
    EXPECT_EQ(c.device(), device());
    expect_near(values(c), reference_mm(a, b, 3, 5, 4));
  }
}

TEST_P(Linalg, TransposedOperandsNeedNoCopyAndGiveTheSameResult) {
  const auto a = ramp(5 * 3, 1.0);
  const auto b = ramp(4 * 5, 1.0);
  const pl::Tensor at = make(a, {5, 3}, device()).t(); // 3x5, column-major
  const pl::Tensor bt = make(b, {4, 5}, device()).t(); // 5x4
  expect_near(values(pl::mm(at, bt)), reference_mm(values(at), values(bt), 3, 5, 4));
  const pl::Tensor sliced = make(ramp(6 * 5, 1.0), {6, 5}, device()).narrow(0, 1, 3);
  expect_near(values(pl::matmul(sliced, bt)), reference_mm(values(sliced), values(bt), 3, 5, 4));
}

TEST_P(Linalg, MatmulHandlesVectorsAndBatches) {
  const pl::Tensor v = make({1, 2, 3}, {3}, device());
  const pl::Tensor m = make({1, 0, 0, 1, 1, 1}, {3, 2}, device());
  const pl::Tensor dot = pl::matmul(v, v);
  EXPECT_EQ(dot.dim(), 0);
  EXPECT_EQ(dot.item<float>(), 14.0f);
  EXPECT_EQ(values(pl::matmul(v, m)), (std::vector<double>{4, 5}));
  EXPECT_EQ(values(m.t().matmul(v)), (std::vector<double>{4, 5}));
  const auto a = ramp(2 * 3 * 4, 0.5);
  const auto b = ramp(4 * 2, 0.5);
  const pl::Tensor batched = pl::matmul(make(a, {2, 3, 4}, device()), make(b, {4, 2}, device()));
  EXPECT_EQ(sizes(batched), (Sizes{2, 3, 2}));
  const auto got = values(batched);
  for (int batch = 0; batch < 2; ++batch) {
    const std::vector<double> slice(a.begin() + batch * 12, a.begin() + (batch + 1) * 12);
    const auto expected = reference_mm(slice, b, 3, 4, 2);
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(got[static_cast<std::size_t>(batch * 6) + i], expected[i], 1e-4);
  }
  EXPECT_EQ(sizes(pl::matmul(pl::ones({5, 1, 2, 3}, device()), pl::ones({4, 3, 2}, device()))),
            (Sizes{5, 4, 2, 2}));
}

TEST_P(Linalg, EmptyInnerDimensionGivesZeros) {
  EXPECT_EQ(values(pl::mm(pl::ones({2, 0}, device()), pl::ones({0, 3}, device()))),
            (std::vector<double>(6, 0.0)));
}

TEST_P(Linalg, ShapeAndDtypeErrors) {
  const pl::Tensor a = pl::ones({2, 3}, device());
  EXPECT_THROW_MESSAGE(pl::mm(a, a), pl::ShapeError,
                       "mm: shapes [2, 3] and [2, 3] cannot be multiplied (2x3 and 2x3)");
  EXPECT_THROW_MESSAGE(pl::mm(a, pl::ones({3}, device())), pl::ShapeError,
                       "mm: expected two matrices, but got 2D and 1D");
  EXPECT_THROW_MESSAGE(pl::matmul(pl::tensor(1.0, device()), a), pl::ShapeError,
                       "matmul: both arguments need to be at least 1D, but they are 0D and 2D");
  EXPECT_THROW_MESSAGE(
      pl::matmul(a, pl::ones({3, 2}, pl::TensorOptions(device()).dtype(pl::kDouble))),
      pl::DTypeError,
      "matmul: expected 'self' and 'other' to have the same dtype, but got Float and Double");
  EXPECT_THROW_MESSAGE(pl::matmul(pl::ones({2, 2}, pl::TensorOptions(device()).dtype(pl::kLong)),
                                  pl::ones({2, 2}, pl::TensorOptions(device()).dtype(pl::kLong))),
                       pl::DTypeError, "matmul: supports Float and Double, but got Long");
}

TEST_P(Linalg, LinearIsInputTimesWeightTransposedPlusBias) {
  const pl::Tensor input = make({1, 2, 3, 4, 5, 6}, {2, 3}, device());
  const pl::Tensor weight = make({1, 0, 1, 0, 1, 0}, {2, 3}, device());
  const pl::Tensor bias = make({10, 20}, {2}, device());
  EXPECT_EQ(values(pl::linear(input, weight, bias)), (std::vector<double>{14, 22, 20, 25}));
  EXPECT_EQ(values(pl::linear(input, weight)), (std::vector<double>{4, 2, 10, 5}));
  EXPECT_THROW_CONTAINING(pl::linear(pl::ones({2, 2}, device()), weight), pl::ShapeError,
                          "linear: 'input' of sizes [2, 2] does not have the 3 features");
}

TEST_P(Linalg, CatJoinsAlongAnExistingDimension) {
  const pl::Tensor a = make({1, 2, 3, 4}, {2, 2}, device());
  const pl::Tensor b = make({5, 6}, {1, 2}, device());
  const pl::Tensor rows = pl::cat({a, b});
  EXPECT_EQ(sizes(rows), (Sizes{3, 2}));
  EXPECT_EQ(values(rows), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const pl::Tensor cols = pl::cat({a, b.t().to(pl::kDouble)}, -1);
  EXPECT_EQ(cols.dtype(), pl::kDouble) << "dtypes promote";
  EXPECT_EQ(values(cols), (std::vector<double>{1, 2, 5, 3, 4, 6}));
  EXPECT_EQ(sizes(pl::cat({a, pl::zeros({0, 2}, device())})), (Sizes{2, 2}));
  EXPECT_THROW_MESSAGE(pl::cat({a, b}, 1), pl::ShapeError,
                       "cat: sizes of tensors must match except in dimension 1, but tensors[0] has "
                       "sizes [2, 2] and tensors[1] has sizes [1, 2]");
  EXPECT_THROW_MESSAGE(pl::cat({pl::tensor(1.0, device())}), pl::ShapeError,
                       "cat: zero-dimensional tensor (at position 0) cannot be concatenated");
  EXPECT_THROW_MESSAGE(pl::cat({}), pl::ShapeError, "cat: expected a non-empty list of tensors");
}

TEST_P(Linalg, StackJoinsAlongANewDimension) {
  const pl::Tensor a = make({1, 2}, {2}, device());
  const pl::Tensor b = make({3, 4}, {2}, device());
  EXPECT_EQ(sizes(pl::stack({a, b})), (Sizes{2, 2}));
  EXPECT_EQ(values(pl::stack({a, b}, 1)), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(values(pl::stack({a, b}, -1)), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_THROW_MESSAGE(
      pl::stack({a, pl::ones({3}, device())}), pl::ShapeError,
      "stack: expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
}

INSTANTIATE_TEST_SUITE_P(Devices, Linalg, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
