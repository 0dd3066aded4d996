// Views share storage; reshape copies only when it must.
#include "test_support.h"

namespace {

using pl_test::make;
using pl_test::OnDevice;
using pl_test::sizes;
using pl_test::values;
using Sizes = std::vector<std::int64_t>;

class Views : public OnDevice {};

TEST_P(Views, ViewSharesStorageAndInfersOneSize) {
  const pl::Tensor a = pl::arange(12, device()).to(pl::kFloat);
  const pl::Tensor v = a.view({3, -1});
  EXPECT_EQ(sizes(v), (Sizes{3, 4}));
  EXPECT_EQ(v.strides().vec(), (Sizes{4, 1}));
  EXPECT_EQ(v.data_ptr(), a.data_ptr());
  v.select(0, 1).fill_(-1);
  EXPECT_EQ(values(a)[4], -1);
  EXPECT_EQ(sizes(a.view({2, 2, 3})), (Sizes{2, 2, 3}));
  EXPECT_EQ(sizes(a.view({12})), (Sizes{12}));
}

TEST_P(Views, ViewRejectsImpossibleShapesAndLayouts) {
  const pl::Tensor a = pl::zeros({2, 6}, device());
  EXPECT_THROW_MESSAGE(a.view({5, -1}), pl::ShapeError,
                       "view: shape [5, -1] is invalid for input of size 12");
  EXPECT_THROW_MESSAGE(a.view({-1, -1}), pl::ShapeError,
                       "view: only one dimension can be inferred (sizes [-1, -1])");
  EXPECT_THROW_MESSAGE(a.view({7}), pl::ShapeError,
                       "view: shape [7] is invalid for input of size 12");
  EXPECT_THROW_CONTAINING(a.t().view({12}), pl::ShapeError, "use reshape instead");
  EXPECT_NO_THROW((void)a.t().view({3, 2, 2}))
      << "splitting one dimension works on a transposed view";
}

TEST_P(Views, ReshapeViewsWhenItCanAndCopiesWhenItMust) {
  const pl::Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3}, device());
  const pl::Tensor same = a.reshape({3, 2});
  EXPECT_EQ(same.data_ptr(), a.data_ptr());
  const pl::Tensor copied = a.t().reshape({6});
  EXPECT_NE(copied.data_ptr(), a.data_ptr());
  EXPECT_EQ(values(copied), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(sizes(pl::reshape(a, {-1})), (Sizes{6}));
}

TEST_P(Views, TransposeSwapsSizesAndStrides) {
  const pl::Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3}, device());
  const pl::Tensor t = a.t();
  EXPECT_EQ(sizes(t), (Sizes{3, 2}));
  EXPECT_EQ(t.strides().vec(), (Sizes{1, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(values(t), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(t.data_ptr(), a.data_ptr());
  const pl::Tensor b = pl::zeros({2, 3, 4}, device());
  EXPECT_EQ(sizes(b.transpose(0, -1)), (Sizes{4, 3, 2}));
  EXPECT_EQ(sizes(pl::transpose(b, 1, 2)), (Sizes{2, 4, 3}));
  EXPECT_THROW_MESSAGE(b.t(), pl::ShapeError,
                       "t: expects a tensor with <= 2 dimensions, but it has 3");
  EXPECT_THROW_MESSAGE(
      b.transpose(0, 3), pl::IndexError,
      "transpose: dimension out of range (expected to be in range of [-3, 2], but got 3)");
  EXPECT_EQ(sizes(make({1, 2}, {2}, device()).t()), (Sizes{2}));
}

TEST_P(Views, ContiguousCopiesOnlyNonContiguousTensors) {
  const pl::Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3}, device());
  EXPECT_TRUE(a.contiguous().is_same(a));
  const pl::Tensor c = a.t().contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides().vec(), (Sizes{2, 1}));
  EXPECT_EQ(values(c), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(c.device(), device());
}

TEST_P(Views, NarrowSelectIndexUnsqueezeSqueezeFlatten) {
  const pl::Tensor a = pl::arange(24, device()).view({2, 3, 4});
  EXPECT_EQ(pl_test::long_values(a.narrow(2, 1, 2).select(0, 1).select(0, 2)),
            (std::vector<std::int64_t>{21, 22}));
  EXPECT_EQ(a[1][2][3].item<std::int64_t>(), 23);
  EXPECT_EQ(a.select(-1, -1).sizes().vec(), (Sizes{2, 3}));
  EXPECT_EQ(sizes(a.unsqueeze(0)), (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(sizes(a.unsqueeze(-1)), (Sizes{2, 3, 4, 1}));
  EXPECT_EQ(sizes(a.unsqueeze(1).squeeze(1)), (Sizes{2, 3, 4}));
  EXPECT_EQ(sizes(a.squeeze(0)), (Sizes{2, 3, 4})) << "only size-1 dims are removed";
  EXPECT_EQ(sizes(a.flatten()), (Sizes{24}));
  EXPECT_EQ(sizes(a.flatten(1)), (Sizes{2, 12}));
  EXPECT_THROW_MESSAGE(a.select(1, 3), pl::IndexError,
                       "select: index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_THROW_CONTAINING(a.narrow(0, 1, 2), pl::IndexError,
                          "narrow: start 1 and length 2 are out of range");
  EXPECT_THROW_CONTAINING(pl::tensor(1.0)[0], pl::IndexError, "cannot index a 0-dim tensor");
}

TEST_P(Views, TooManyDimensionsIsAShapeError) {
  EXPECT_THROW_CONTAINING(pl::zeros({1, 1, 1, 1, 1, 1, 1, 1, 1}, device()), pl::ShapeError,
                          "tensors have at most 8 dimensions");
  EXPECT_THROW_CONTAINING(pl::zeros({-1}, device()), pl::ShapeError, "negative dimension -1");
}

INSTANTIATE_TEST_SUITE_P(Devices, Views, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
