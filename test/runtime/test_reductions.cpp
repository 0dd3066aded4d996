// Reductions against reference loops, by dim and whole, with keepdim.
#include <cmath>
#include <limits>

#include "test_support.h"

namespace {

using pl_test::make;
using pl_test::OnDevice;
using pl_test::sizes;
using pl_test::values;
using Sizes = std::vector<std::int64_t>;

class Reductions : public OnDevice {
protected:
  // 2x3x4 values with no ties.
  std::vector<double> data() const {
    std::vector<double> v(24);
    for (int i = 0; i < 24; ++i)
      v[static_cast<std::size_t>(i)] = std::sin(i * 1.7) * 10;
    return v;
  }
  double at(const std::vector<double> &v, int i, int j, int k) const {
    return v[static_cast<std::size_t>((i * 3 + j) * 4 + k)];
  }
};

TEST_P(Reductions, SumAndMeanByDimMatchReferenceLoops) {
  const auto v = data();
  const pl::Tensor t = make(v, {2, 3, 4}, device(), pl::kDouble);
  const pl::Tensor s1 = t.sum(1);
  const pl::Tensor s02 = t.sum({0, 2}, true);
  const pl::Tensor m2 = pl::mean(t, -1);
  EXPECT_EQ(sizes(s1), (Sizes{2, 4}));
  EXPECT_EQ(sizes(s02), (Sizes{1, 3, 1}));
  EXPECT_EQ(sizes(m2), (Sizes{2, 3}));
  const auto s1v = values(s1);
  const auto s02v = values(s02);
  const auto m2v = values(m2);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double expected = 0;
      for (int j = 0; j < 3; ++j)
        expected += at(v, i, j, k);
      EXPECT_NEAR(s1v[static_cast<std::size_t>(i * 4 + k)], expected, 1e-12);
    }
  for (int j = 0; j < 3; ++j) {
    double expected = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k)
        expected += at(v, i, j, k);
    EXPECT_NEAR(s02v[static_cast<std::size_t>(j)], expected, 1e-12);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      double expected = 0;
      for (int k = 0; k < 4; ++k)
        expected += at(v, i, j, k);
      EXPECT_NEAR(m2v[static_cast<std::size_t>(i * 3 + j)], expected / 4, 1e-12);
    }
}

TEST_P(Reductions, WholeTensorReductionsAreZeroDim) {
  const auto v = data();
  const pl::Tensor t = make(v, {2, 3, 4}, device(), pl::kDouble);
  double sum = 0, best = -1e300;
  std::int64_t best_index = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    sum += v[i];
    if (v[i] > best) {
      best = v[i];
      best_index = static_cast<std::int64_t>(i);
    }
  }
  EXPECT_EQ(t.sum().dim(), 0);
  EXPECT_NEAR(t.sum().item<double>(), sum, 1e-12);
  EXPECT_NEAR(t.mean().item<double>(), sum / 24, 1e-12);
  EXPECT_EQ(t.max().item<double>(), best);
  EXPECT_EQ(pl::argmax(t).item<std::int64_t>(), best_index);
  EXPECT_EQ(sizes(t.argmax(std::nullopt, true)), (Sizes{1, 1, 1}));
}

TEST_P(Reductions, MaxAndArgmaxByDim) {
  const auto v = data();
  const pl::Tensor t = make(v, {2, 3, 4}, device());
  const auto [values_by_dim, indices] = pl::max(t, 1);
  EXPECT_EQ(sizes(values_by_dim), (Sizes{2, 4}));
  EXPECT_EQ(indices.dtype(), pl::kLong);
  const auto got_values = values(values_by_dim);
  const auto got_indices = pl_test::long_values(indices);
  const auto argmax = pl_test::long_values(t.argmax(1));
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      int best = 0;
      for (int j = 1; j < 3; ++j)
        if (at(v, i, j, k) > at(v, i, best, k))
          best = j;
      EXPECT_FLOAT_EQ(got_values[static_cast<std::size_t>(i * 4 + k)], at(v, i, best, k));
      EXPECT_EQ(got_indices[static_cast<std::size_t>(i * 4 + k)], best);
      EXPECT_EQ(argmax[static_cast<std::size_t>(i * 4 + k)], best);
    }
  const auto [kept, kept_indices] = t.max(-1, true);
  EXPECT_EQ(sizes(kept), (Sizes{2, 3, 1}));
  EXPECT_EQ(sizes(kept_indices), (Sizes{2, 3, 1}));
}

TEST_P(Reductions, TiesPickTheFirstAndNanWins) {
  const pl::Tensor t = make({1, 5, 5, 2}, {4}, device());
  EXPECT_EQ(t.argmax().item<std::int64_t>(), 1);
  const pl::Tensor n = make({1, NAN, 7, NAN}, {4}, device());
  EXPECT_TRUE(std::isnan(n.max().item<float>()));
  EXPECT_EQ(n.argmax().item<std::int64_t>(), 1);
}

TEST_P(Reductions, IntegerAndBoolSumsAreLong) {
  const pl::TensorOptions on(device());
  EXPECT_EQ(pl::tensor({true, true, false}, on).sum().item<std::int64_t>(), 2);
  EXPECT_EQ(pl::tensor({true, true, false}, on).sum().dtype(), pl::kLong);
  EXPECT_EQ(pl::arange(5, on).sum().item<std::int64_t>(), 10);
  EXPECT_THROW_MESSAGE(pl::arange(5, on).mean(), pl::DTypeError,
                       "mean: could not infer output dtype; the input dtype must be Float or "
                       "Double, but got Long");
}

TEST_P(Reductions, EmptyAndZeroDimInputs) {
  const pl::Tensor empty = pl::zeros({0, 3}, device());
  EXPECT_EQ(values(empty.sum(0)), (std::vector<double>{0, 0, 0}));
  EXPECT_TRUE(std::isnan(empty.mean().item<float>()));
  EXPECT_THROW_CONTAINING(empty.max(), pl::ShapeError, "max: expected a non-empty tensor");
  EXPECT_THROW_MESSAGE(empty.max(0), pl::ShapeError,
                       "max: expected reduction dim 0 to have non-zero size");
  EXPECT_EQ(sizes(std::get<0>(empty.max(1))), (Sizes{0}));
  const pl::Tensor scalar = pl::tensor(3.5, device());
  EXPECT_EQ(scalar.sum(0).item<float>(), 3.5f);
  EXPECT_EQ(scalar.argmax(0).item<std::int64_t>(), 0);
  EXPECT_EQ(std::get<0>(scalar.max(-1)).item<float>(), 3.5f);
}

TEST_P(Reductions, BadDimsAreIndexErrors) {
  const pl::Tensor t = pl::zeros({2, 3}, device());
  EXPECT_THROW_MESSAGE(
      t.sum(2), pl::IndexError,
      "sum: dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_THROW_MESSAGE(t.sum({0, -2}), pl::IndexError,
                       "sum: dim 0 appears multiple times in the list of dims");
  EXPECT_THROW_CONTAINING(t.argmax(-3), pl::IndexError, "argmax: dimension out of range");
}

TEST_P(Reductions, LargeReductionsSplitAcrossThreads) {
  const pl::Tensor ones = pl::ones({1000, 300}, pl::TensorOptions(device()).dtype(pl::kDouble));
  const auto rows = values(ones.sum(1));
  EXPECT_EQ(rows.size(), 1000u);
  for (double r : rows)
    EXPECT_EQ(r, 300.0);
  EXPECT_EQ(ones.sum().item<double>(), 300000.0);
}

INSTANTIATE_TEST_SUITE_P(Devices, Reductions, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
