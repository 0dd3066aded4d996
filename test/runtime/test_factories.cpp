// Factories, options and printing.
#include <sstream>

#include "test_support.h"

namespace {

using pl::Device;
using pl_test::OnDevice;
using pl_test::sizes;
using pl_test::values;
using Sizes = std::vector<std::int64_t>;

class Factories : public OnDevice {};

TEST_P(Factories, FillFactoriesUseTheOptions) {
  const pl::Tensor z = pl::zeros({2, 3}, device());
  EXPECT_EQ(sizes(z), (Sizes{2, 3}));
  EXPECT_EQ(z.dtype(), pl::kFloat);
  EXPECT_EQ(z.device(), device());
  EXPECT_EQ(values(z), std::vector<double>(6, 0.0));
  EXPECT_EQ(values(pl::ones({2}, pl::TensorOptions(device()).dtype(pl::kLong))),
            (std::vector<double>{1, 1}));
  EXPECT_EQ(pl::ones({2}, pl::dtype(pl::kDouble).device(device())).dtype(), pl::kDouble);
  EXPECT_EQ(pl::ones({2}, pl::device(device()).dtype<std::int64_t>()).dtype(), pl::kLong);
  EXPECT_EQ(pl::full({2}, 7, device()).dtype(), pl::kLong) << "the fill value's kind decides";
  EXPECT_EQ(pl::full({2}, 7.5, device()).dtype(), pl::kFloat);
  EXPECT_EQ(pl::full({2}, true, device()).dtype(), pl::kBool);
  EXPECT_EQ(values(pl::full({2}, 7.5, device())), (std::vector<double>{7.5, 7.5}));
  EXPECT_EQ(pl::empty({4}, device()).numel(), 4);
  EXPECT_EQ(pl::empty({}, device()).dim(), 0);
  EXPECT_EQ(pl::empty({}, device()).numel(), 1);
  EXPECT_EQ(pl::zeros({2, 0}, device()).numel(), 0);
}

TEST_P(Factories, ArangeCountsLikePyTorch) {
  EXPECT_EQ(values(pl::arange(4, device())), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(pl::arange(4, device()).dtype(), pl::kLong);
  EXPECT_EQ(values(pl::arange(1, 3, device())), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(pl::arange(0, 1, 0.25, device())), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(pl::arange(0, 1, 0.25, device()).dtype(), pl::kFloat);
  EXPECT_EQ(values(pl::arange(3, 0, -1, device())), (std::vector<double>{3, 2, 1}));
  EXPECT_EQ(pl::arange(0, device()).numel(), 0);
  EXPECT_THROW_MESSAGE(pl::arange(0, 1, 0, device()), pl::Error, "arange: step must be nonzero");
  EXPECT_THROW_CONTAINING(pl::arange(0, 5, -1, device()), pl::Error, "inconsistent with step sign");
}

TEST_P(Factories, TensorFromValues) {
  const pl::Tensor floats = pl::tensor({1.5, 2.5}, device());
  EXPECT_EQ(floats.dtype(), pl::kFloat);
  EXPECT_EQ(values(floats), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(pl::tensor({1, 2, 3}, device()).dtype(), pl::kLong);
  EXPECT_EQ(pl::tensor({true, false}, device()).dtype(), pl::kBool);
  EXPECT_EQ(pl::tensor(std::vector<double>{1, 2}, device()).numel(), 2);
  EXPECT_EQ(pl::tensor(std::vector<bool>{true, false, true}, device()).sum().item<std::int64_t>(),
            2);
  const pl::Tensor zero_dim = pl::tensor(2.0, device());
  EXPECT_EQ(zero_dim.dim(), 0);
  EXPECT_EQ(zero_dim.item<double>(), 2.0);
  EXPECT_EQ(zero_dim.dtype(), pl::kFloat);
  EXPECT_EQ(pl::tensor({1, 2}, pl::TensorOptions(device()).dtype(pl::kDouble)).dtype(),
            pl::kDouble);
  EXPECT_EQ(pl::scalar_tensor(3, device()).dtype(), pl::kFloat);
  EXPECT_EQ(pl::scalar_tensor(3, device()).item<float>(), 3.0f);
}

TEST_P(Factories, RandomValuesAreSeededAndDeviceIndependent) {
  pl::manual_seed(42);
  const auto first = values(pl::randn({100}, device()));
  pl::manual_seed(42);
  const auto on_cpu = values(pl::randn({100}));
  EXPECT_EQ(first, on_cpu);
  double mean = 0;
  for (double v : first)
    mean += v / 100;
  EXPECT_LT(std::abs(mean), 0.5);
  const auto uniform = values(pl::rand({1000}, device()));
  for (double v : uniform) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
  }
  EXPECT_THROW_CONTAINING(pl::randn({2}, pl::TensorOptions(device()).dtype(pl::kLong)),
                          pl::DTypeError, "randn: expects a floating dtype");
}

INSTANTIATE_TEST_SUITE_P(Devices, Factories, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

TEST(FromBlob, WrapsCallerMemoryWithoutCopying) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  const pl::Tensor t = pl::from_blob(data, {2, 3});
  EXPECT_EQ(t.data_ptr(), static_cast<void *>(data));
  t.add_(1);
  EXPECT_EQ(data[5], 6.0f);
  double column[4] = {1, 2, 3, 4};
  const pl::Tensor strided = pl::from_blob(column, {2}, {2}, pl::kDouble);
  EXPECT_EQ(values(strided), (std::vector<double>{1, 3}));
  bool deleted = false;
  {
    const pl::Tensor owned = pl::from_blob(data, {6}, [&](void *) { deleted = true; });
    EXPECT_FALSE(deleted);
  }
  EXPECT_TRUE(deleted);
}

TEST(Allocation, AnAbsurdSizeThrowsAllocationError) {
  EXPECT_THROW_CONTAINING(pl::empty({std::int64_t{1} << 40, std::int64_t{1} << 20}),
                          pl::AllocationError, "cpu: cannot allocate");
  EXPECT_THROW_CONTAINING(
      pl::empty({std::int64_t{1} << 40, std::int64_t{1} << 20}, Device("sim:1")),
      pl::AllocationError, "sim:1: cannot allocate");
  EXPECT_THROW_CONTAINING(pl::empty({std::int64_t{1} << 62, 8}), pl::AllocationError,
                          "the size in bytes overflows");
}

TEST(Printing, MatchesLibtorchLayout) {
  std::ostringstream os;
  os << pl::arange(6, pl::kFloat).view({2, 3});
  EXPECT_EQ(os.str(), " 0 1 2\n 3 4 5\n[ CPUFloatType{2,3} ]");
  std::ostringstream vector;
  vector << pl::tensor({1.5, -2.25}, Device("sim:1"));
  EXPECT_EQ(vector.str(), "  1.5000\n -2.2500\n[ SimFloatType{2} on sim:1 ]");
  std::ostringstream scalar;
  scalar << pl::tensor(std::int64_t{7});
  EXPECT_EQ(scalar.str(), "7\n[ CPULongType{} ]");
  std::ostringstream cube;
  cube << pl::arange(4).view({2, 1, 2});
  EXPECT_EQ(cube.str(), "(0,.,.) = \n 0 1\n\n(1,.,.) = \n 2 3\n[ CPULongType{2,1,2} ]");
  std::ostringstream undefined;
  undefined << pl::Tensor();
  EXPECT_EQ(undefined.str(), "[ Tensor (undefined) ]");
  std::ostringstream special;
  special << pl::tensor(std::vector<double>{NAN, INFINITY, 1.0});
  EXPECT_EQ(special.str(), " nan\n inf\n   1\n[ CPUFloatType{3} ]");
}

TEST(Printing, ScalarTypesAndDevicesHaveLibtorchNames) {
  std::ostringstream os;
  os << pl::kFloat << ' ' << pl::kDouble << ' ' << pl::kLong << ' ' << pl::kBool;
  EXPECT_EQ(os.str(), "Float Double Long Bool");
}

TEST(Comparison, EqualAndAllclose) {
  const pl::Tensor a = pl::tensor({1.0, 2.0});
  EXPECT_TRUE(a.equal(pl::tensor({1.0, 2.0})));
  EXPECT_FALSE(a.equal(pl::tensor({1.0, 2.5})));
  EXPECT_FALSE(a.equal(pl::tensor({1.0})));
  EXPECT_TRUE(pl::equal(pl::tensor({1, 2}), pl::tensor({1, 2})));
  EXPECT_TRUE(pl::allclose(a, a + 1e-9));
  EXPECT_FALSE(pl::allclose(a, a + 1e-3));
  EXPECT_THROW(a.equal(a.to(Device("sim:0"))), pl::DeviceMismatchError);
}

} // namespace
