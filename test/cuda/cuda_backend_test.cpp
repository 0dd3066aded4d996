// The CUDA backend through the public pl API, against the cpu backend: every
// kernel family, transfers both ways (blocking and non_blocking), the caching
// allocator and its errors. Each test is skipped, saying why, where no CUDA
// GPU is available.
#include <pl/pl.h>
#include <placelint/rule_ids.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

const pl::Device kCuda0("cuda:0");

class CudaTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!pl::cuda::is_available())
      GTEST_SKIP() << "no CUDA GPU is available (pl::cuda::is_available() is false)";
  }
};

class TwoGpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (pl::cuda::device_count() < 2)
      GTEST_SKIP() << "needs two CUDA GPUs; " << pl::cuda::device_count() << " available";
  }
};

pl::Tensor random_on_cpu(pl::IntArrayRef sizes, pl::ScalarType dtype = pl::kFloat) {
  return pl::randn(sizes, pl::dtype(dtype));
}

// `on_cuda` was computed on cuda:0 and must match `on_cpu` (same dtype, sizes,
// values within tolerance for floating types, exactly otherwise).
void expect_matches_cpu(const pl::Tensor &on_cuda, const pl::Tensor &on_cpu, double rtol = 1e-5,
                        double atol = 1e-6) {
  ASSERT_EQ(on_cuda.device(), kCuda0);
  ASSERT_TRUE(on_cpu.is_cpu());
  const pl::Tensor back = on_cuda.cpu();
  ASSERT_EQ(back.dtype(), on_cpu.dtype());
  ASSERT_EQ(back.sizes().vec(), on_cpu.sizes().vec());
  if (on_cpu.is_floating_point())
    EXPECT_TRUE(back.allclose(on_cpu, rtol, atol)) << "cuda:\n" << back << "\ncpu:\n" << on_cpu;
  else
    EXPECT_TRUE(back.equal(on_cpu)) << "cuda:\n" << back << "\ncpu:\n" << on_cpu;
}

// ---- transfers -------------------------------------------------------------

TEST_F(CudaTest, RoundTripKeepsValuesOfEveryDtype) {
  pl::manual_seed(1);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble, pl::kLong, pl::kBool}) {
    const pl::Tensor host = (random_on_cpu({7, 5}) * 10).to(dtype);
    const pl::Tensor device = host.to(kCuda0);
    EXPECT_EQ(device.device(), kCuda0);
    EXPECT_EQ(device.dtype(), dtype);
    EXPECT_TRUE(device.cpu().equal(host)) << dtype;
  }
}

TEST_F(CudaTest, ToSameDeviceReturnsTheSameTensor) {
  const pl::Tensor device = pl::ones({3}, pl::device(kCuda0));
  EXPECT_TRUE(device.to(kCuda0).is_same(device));
  EXPECT_TRUE(device.cuda().is_same(device));
  EXPECT_FALSE(device.to(kCuda0, pl::kFloat, false, /*copy=*/true).is_same(device));
}

TEST_F(CudaTest, NonBlockingCopyStagesTheSource) {
  // Large enough that the DMA is still running when the call returns; the
  // source is overwritten at once, which must not reach the device copy.
  const std::int64_t n = std::int64_t{1} << 24;
  const pl::Tensor host = pl::arange(n, pl::dtype(pl::kFloat));
  const pl::Tensor expected = host.clone();
  const pl::Tensor device = host.to(kCuda0, pl::kFloat, /*non_blocking=*/true);
  host.fill_(-1);
  EXPECT_TRUE(device.cpu().equal(expected));
}

TEST_F(CudaTest, NonBlockingCopiesInSequenceKeepTheirOwnData) {
  std::vector<pl::Tensor> copies;
  for (int i = 0; i < 16; ++i)
    copies.push_back(pl::full({1000}, i).to(kCuda0, pl::kLong, /*non_blocking=*/true));
  // Kernels queued right after the copies see the copied data.
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(copies[i].sum().item<std::int64_t>(), 1000 * i) << i;
    EXPECT_TRUE(copies[i].cpu().equal(pl::full({1000}, i))) << i;
  }
}

TEST_F(CudaTest, CopyIntoDeviceTensorFromHostAndBack) {
  pl::manual_seed(2);
  const pl::Tensor host = random_on_cpu({4, 6});
  const pl::Tensor device = pl::empty({4, 6}, pl::device(kCuda0));
  device.copy_(host);
  const pl::Tensor host_again = pl::empty({4, 6});
  host_again.copy_(device);
  EXPECT_TRUE(host_again.equal(host));
}

TEST_F(CudaTest, ItemReadsOneElement) {
  EXPECT_EQ(pl::full({1}, 2.5, pl::device(kCuda0)).item<float>(), 2.5f);
  EXPECT_EQ(pl::full({}, std::int64_t{-7}, pl::device(kCuda0)).item<std::int64_t>(), -7);
  EXPECT_EQ(pl::tensor(true, pl::device(kCuda0)).item<bool>(), true);
}

// ---- factories, fill and copy with cast -------------------------------------

TEST_F(CudaTest, FactoriesMatchCpu) {
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble, pl::kLong, pl::kBool}) {
    const auto cuda = pl::TensorOptions(kCuda0).dtype(dtype);
    const auto cpu = pl::dtype(dtype);
    expect_matches_cpu(pl::zeros({3, 4}, cuda), pl::zeros({3, 4}, cpu));
    expect_matches_cpu(pl::ones({3, 4}, cuda), pl::ones({3, 4}, cpu));
    expect_matches_cpu(pl::full({2, 2}, 3, cuda), pl::full({2, 2}, 3, cpu));
  }
  expect_matches_cpu(pl::arange(0, 10, 3, pl::device(kCuda0)), pl::arange(0, 10, 3));
  expect_matches_cpu(pl::tensor({1.5, -2.0}, pl::device(kCuda0)), pl::tensor({1.5, -2.0}));
  pl::manual_seed(3);
  const pl::Tensor on_cuda = pl::randn({64}, pl::device(kCuda0));
  pl::manual_seed(3);
  expect_matches_cpu(on_cuda, pl::randn({64}));
}

TEST_F(CudaTest, FillInPlaceOnStridedView) {
  const pl::Tensor cpu = pl::zeros({4, 6});
  const pl::Tensor cuda = cpu.to(kCuda0);
  cpu.transpose(0, 1).narrow(0, 1, 3).fill_(5);
  cuda.transpose(0, 1).narrow(0, 1, 3).fill_(5);
  expect_matches_cpu(cuda, cpu);
}

TEST_F(CudaTest, StridedCopyAndCastMatchCpu) {
  pl::manual_seed(4);
  const pl::Tensor cpu = random_on_cpu({5, 7, 3}) * 4;
  const pl::Tensor cuda = cpu.to(kCuda0);
  expect_matches_cpu(cuda.transpose(0, 2).contiguous(), cpu.transpose(0, 2).contiguous());
  expect_matches_cpu(cuda.narrow(1, 2, 4).clone(), cpu.narrow(1, 2, 4).clone());
  for (pl::ScalarType dtype : {pl::kDouble, pl::kLong, pl::kBool})
    expect_matches_cpu(cuda.transpose(1, 2).to(dtype), cpu.transpose(1, 2).to(dtype));
  expect_matches_cpu(cuda.to(pl::kLong).to(pl::kFloat), cpu.to(pl::kLong).to(pl::kFloat));
}

TEST_F(CudaTest, CopyBroadcastsIntoDestination) {
  const pl::Tensor cpu = pl::zeros({3, 4});
  const pl::Tensor cuda = cpu.to(kCuda0);
  const pl::Tensor row = pl::arange(4, pl::dtype(pl::kDouble));
  cpu.copy_(row);
  cuda.copy_(row.to(kCuda0));
  expect_matches_cpu(cuda, cpu);
}

// ---- elementwise -----------------------------------------------------------

TEST_F(CudaTest, UnaryOpsMatchCpu) {
  pl::manual_seed(5);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor cpu = random_on_cpu({33, 17}, dtype);
    const pl::Tensor cuda = cpu.to(kCuda0);
    expect_matches_cpu(cuda.neg(), cpu.neg());
    expect_matches_cpu(cuda.relu(), cpu.relu());
    expect_matches_cpu(cuda.exp(), cpu.exp());
    expect_matches_cpu(cuda.exp().log(), cpu.exp().log());
    expect_matches_cpu(cuda.exp().sqrt(), cpu.exp().sqrt());
    expect_matches_cpu(cuda.t().relu(), cpu.t().relu());
  }
  const pl::Tensor longs = pl::arange(-5, 5);
  expect_matches_cpu(longs.to(kCuda0).neg(), longs.neg());
  expect_matches_cpu(longs.to(kCuda0).relu(), longs.relu());
}

TEST_F(CudaTest, UnaryInPlaceMatchesCpu) {
  pl::manual_seed(6);
  const pl::Tensor cpu = random_on_cpu({100});
  const pl::Tensor cuda = cpu.to(kCuda0);
  cpu.relu_().neg_();
  cuda.relu_().neg_();
  expect_matches_cpu(cuda, cpu);
}

TEST_F(CudaTest, LogOfNegativeIsNanAsOnCpu) {
  const pl::Tensor cpu = pl::tensor({-1.0, 0.0, 1.0});
  const pl::Tensor result = cpu.to(kCuda0).log().cpu();
  EXPECT_TRUE(std::isnan(result[0].item<float>()));
  EXPECT_EQ(result[1].item<float>(), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(result[2].item<float>(), 0.0f);
}

TEST_F(CudaTest, BinaryOpsWithBroadcastingMatchCpu) {
  pl::manual_seed(7);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor a = random_on_cpu({4, 1, 6}, dtype);
    const pl::Tensor b = random_on_cpu({3, 1}, dtype).exp(); // nonzero divisor
    const pl::Tensor ca = a.to(kCuda0), cb = b.to(kCuda0);
    expect_matches_cpu(ca + cb, a + b);
    expect_matches_cpu(ca - cb, a - b);
    expect_matches_cpu(ca * cb, a * b);
    expect_matches_cpu(ca / cb, a / b);
    expect_matches_cpu(cb.t() * ca.transpose(1, 2), b.t() * a.transpose(1, 2));
  }
}

TEST_F(CudaTest, IntegerAndBoolBinaryOpsMatchCpu) {
  const pl::Tensor a = pl::arange(-6, 6).view({3, 4});
  const pl::Tensor b = pl::arange(4);
  expect_matches_cpu(a.to(kCuda0) + b.to(kCuda0), a + b);
  expect_matches_cpu(a.to(kCuda0) - b.to(kCuda0), a - b);
  expect_matches_cpu(a.to(kCuda0) * b.to(kCuda0), a * b);
  const pl::Tensor p = pl::tensor({true, false, true, false});
  const pl::Tensor q = pl::tensor({true, true, false, false});
  expect_matches_cpu(p.to(kCuda0) + q.to(kCuda0), p + q);
  expect_matches_cpu(p.to(kCuda0) * q.to(kCuda0), p * q);
}

TEST_F(CudaTest, ScalarOperandsMatchCpu) {
  pl::manual_seed(8);
  const pl::Tensor a = random_on_cpu({5, 5});
  const pl::Tensor ca = a.to(kCuda0);
  expect_matches_cpu(ca + 2, a + 2);
  expect_matches_cpu(2 - ca, 2 - a);
  expect_matches_cpu(ca * 0.5, a * 0.5);
  expect_matches_cpu(3 / ca.exp(), 3 / a.exp());
  expect_matches_cpu(ca.t() / 4, a.t() / 4);
  const pl::Tensor longs = pl::arange(10);
  expect_matches_cpu(longs.to(kCuda0) * 3, longs * 3);
  expect_matches_cpu(longs.to(kCuda0) / 4, longs / 4); // true division: Float
}

TEST_F(CudaTest, CpuZeroDimTensorTakesPartAsScalar) {
  const pl::Tensor a = pl::arange(6, pl::dtype(pl::kFloat));
  const pl::Tensor scale = pl::tensor(2.0);
  const pl::Tensor result = a.to(kCuda0) * scale;
  expect_matches_cpu(result, a * scale);
}

TEST_F(CudaTest, InPlaceBinaryWithBroadcastMatchesCpu) {
  pl::manual_seed(9);
  const pl::Tensor cpu = random_on_cpu({6, 8});
  const pl::Tensor cuda = cpu.to(kCuda0);
  const pl::Tensor row = random_on_cpu({8});
  cpu.add_(row).mul_(3).sub_(cpu).div_(2);
  cuda.add_(row.to(kCuda0)).mul_(3).sub_(cuda).div_(2);
  expect_matches_cpu(cuda, cpu);
  cpu.narrow(1, 2, 3) += 1;
  cuda.narrow(1, 2, 3) += 1;
  expect_matches_cpu(cuda, cpu);
}

TEST_F(CudaTest, LargeElementwiseMatchesCpu) {
  pl::manual_seed(10);
  const pl::Tensor a = random_on_cpu({1 << 20});
  const pl::Tensor b = random_on_cpu({1 << 20});
  expect_matches_cpu(a.to(kCuda0) * b.to(kCuda0) + 1, a * b + 1);
}

// ---- reductions -------------------------------------------------------------

TEST_F(CudaTest, ReductionsOverAllMatchCpu) {
  pl::manual_seed(11);
  // Sizes on both sides of the kernel choices: few elements, one block per
  // output, and a reduction split across blocks.
  for (std::int64_t n : {1, 7, 32, 33, 1000, 100000, 3000001}) {
    const pl::Tensor cpu = random_on_cpu({n}, pl::kDouble);
    const pl::Tensor cuda = cpu.to(kCuda0);
    expect_matches_cpu(cuda.sum(), cpu.sum(), 1e-9, 1e-9);
    expect_matches_cpu(cuda.mean(), cpu.mean(), 1e-9, 1e-9);
    expect_matches_cpu(cuda.max(), cpu.max());
    expect_matches_cpu(cuda.argmax(), cpu.argmax());
  }
}

TEST_F(CudaTest, ReductionsOverDimsMatchCpu) {
  pl::manual_seed(12);
  const pl::Tensor cpu = random_on_cpu({6, 50, 40});
  const pl::Tensor cuda = cpu.to(kCuda0);
  for (std::int64_t dim : {0, 1, 2}) {
    expect_matches_cpu(cuda.sum({dim}), cpu.sum({dim}), 1e-4, 1e-5);
    expect_matches_cpu(cuda.mean({dim}, /*keepdim=*/true), cpu.mean({dim}, true), 1e-4, 1e-5);
    const auto [values, indices] = cuda.max(dim);
    const auto [cpu_values, cpu_indices] = cpu.max(dim);
    expect_matches_cpu(values, cpu_values);
    expect_matches_cpu(indices, cpu_indices);
    expect_matches_cpu(cuda.argmax(dim, true), cpu.argmax(dim, true));
  }
  expect_matches_cpu(cuda.sum({0, 2}), cpu.sum({0, 2}), 1e-4, 1e-4);
  expect_matches_cpu(cuda.transpose(0, 2).sum({1}), cpu.transpose(0, 2).sum({1}), 1e-4, 1e-5);
}

// Column reductions: packs of adjacent columns (widths a multiple of a
// 16-byte pack), single columns (an odd width), short columns and long ones
// split across blocks.
TEST_F(CudaTest, ColumnReductionsMatchCpu) {
  pl::manual_seed(14);
  const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
      {3, 8}, {1000, 256}, {20000, 12}, {999, 255}};
  for (const auto &[rows, cols] : shapes)
    for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
      const pl::Tensor cpu = random_on_cpu({rows, cols}, dtype);
      const pl::Tensor cuda = cpu.to(kCuda0);
      expect_matches_cpu(cuda.sum({0}), cpu.sum({0}), 1e-4, 1e-3);
      expect_matches_cpu(cuda.mean({0}), cpu.mean({0}), 1e-4, 1e-5);
      const auto [values, indices] = cuda.max(0);
      const auto [cpu_values, cpu_indices] = cpu.max(0);
      expect_matches_cpu(values, cpu_values);
      expect_matches_cpu(indices, cpu_indices);
      expect_matches_cpu(cuda.argmax(0), cpu.argmax(0));
    }
  // Integers below zero, a NaN in one column and only -inf in another.
  const pl::Tensor longs = (pl::arange(4000) - 3000).view({500, 8});
  expect_matches_cpu(longs.to(kCuda0).sum({0}), longs.sum({0}));
  expect_matches_cpu(std::get<0>(longs.to(kCuda0).max(0)), std::get<0>(longs.max(0)));
  const double inf = std::numeric_limits<double>::infinity();
  pl::Tensor special = pl::zeros({64, 4}, pl::kDouble);
  special.select(1, 1).fill_(-inf);
  special[7][0].fill_(std::numeric_limits<double>::quiet_NaN());
  const pl::Tensor special_max = std::get<0>(special.to(kCuda0).max(0)).cpu();
  EXPECT_TRUE(std::isnan(special_max[0].item<double>()));
  EXPECT_EQ(special_max[1].item<double>(), -inf);
  EXPECT_EQ(special.to(kCuda0).argmax(0).cpu()[0].item<std::int64_t>(), 7);
}

TEST_F(CudaTest, IntegerSumMatchesCpuExactly) {
  const pl::Tensor cpu = pl::arange(200000).view({400, 500});
  expect_matches_cpu(cpu.to(kCuda0).sum(), cpu.sum());
  expect_matches_cpu(cpu.to(kCuda0).sum({1}), cpu.sum({1}));
  const pl::Tensor flags = pl::tensor({true, false, true, true});
  expect_matches_cpu(flags.to(kCuda0).sum(), flags.sum()); // counts the true ones
}

TEST_F(CudaTest, MaxPropagatesNanAndArgMaxTakesFirst) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const pl::Tensor with_nan = pl::tensor({1.0, nan, 3.0, nan});
  EXPECT_TRUE(std::isnan(with_nan.to(kCuda0).max().item<double>()));
  EXPECT_EQ(with_nan.to(kCuda0).argmax().item<std::int64_t>(), 1);
  const pl::Tensor ties = pl::tensor({2.0, 5.0, 5.0, 1.0, 5.0});
  EXPECT_EQ(ties.to(kCuda0).argmax().item<std::int64_t>(), 1);
  // Ties across the blocks of a split reduction: the first index still wins.
  const pl::Tensor many_ties = pl::ones({1 << 20});
  EXPECT_EQ(many_ties.to(kCuda0).argmax().item<std::int64_t>(), 0);
}

TEST_F(CudaTest, EmptyReductionsGiveIdentity) {
  const pl::Tensor empty = pl::zeros({0, 3}, pl::device(kCuda0));
  expect_matches_cpu(empty.sum({0}), pl::zeros({3}));
  const pl::Tensor means = empty.mean({0}).cpu();
  for (std::int64_t i = 0; i < 3; ++i)
    EXPECT_TRUE(std::isnan(means[i].item<float>()));
}

// ---- matmul (cuBLAS) --------------------------------------------------------

TEST_F(CudaTest, MatmulMatchesCpu) {
  pl::manual_seed(13);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor a = random_on_cpu({37, 53}, dtype);
    const pl::Tensor b = random_on_cpu({53, 29}, dtype);
    const pl::Tensor ca = a.to(kCuda0), cb = b.to(kCuda0);
    expect_matches_cpu(ca.matmul(cb), a.matmul(b), 1e-4, 1e-4);
    expect_matches_cpu(pl::mm(cb.t(), ca.t()), pl::mm(b.t(), a.t()), 1e-4, 1e-4);
    expect_matches_cpu(ca.matmul(cb.narrow(1, 0, 1).squeeze(1)),
                       a.matmul(b.narrow(1, 0, 1).squeeze(1)), 1e-4, 1e-4);
  }
}

TEST_F(CudaTest, BatchedMatmulMatchesCpu) {
  pl::manual_seed(14);
  const pl::Tensor a = random_on_cpu({5, 8, 16});
  const pl::Tensor b = random_on_cpu({5, 16, 4});
  expect_matches_cpu(a.to(kCuda0).matmul(b.to(kCuda0)), a.matmul(b), 1e-4, 1e-4);
  const pl::Tensor shared = random_on_cpu({16, 3});
  expect_matches_cpu(a.to(kCuda0).matmul(shared.to(kCuda0)), a.matmul(shared), 1e-4, 1e-4);
}

TEST_F(CudaTest, MatmulWithEmptyInnerDimensionIsZeros) {
  const pl::Tensor a = pl::ones({3, 0}, pl::device(kCuda0));
  const pl::Tensor b = pl::ones({0, 2}, pl::device(kCuda0));
  expect_matches_cpu(a.matmul(b), pl::zeros({3, 2}));
}

TEST_F(CudaTest, CatAndStackMatchCpu) {
  pl::manual_seed(15);
  const pl::Tensor a = random_on_cpu({2, 3});
  const pl::Tensor b = random_on_cpu({4, 3});
  expect_matches_cpu(pl::cat({a.to(kCuda0), b.to(kCuda0)}, 0), pl::cat({a, b}, 0));
  expect_matches_cpu(pl::stack({a.to(kCuda0), a.to(kCuda0)}, 1), pl::stack({a, a}, 1));
}

TEST_F(CudaTest, LinearModuleRunsOnCuda) {
  pl::manual_seed(16);
  pl::nn::Linear on_cpu(8, 3);
  pl::nn::Linear on_cuda(8, 3);
  {
    // Parameters are leaves that require grad: copied into as optimizers do.
    pl::NoGradGuard no_grad;
    on_cuda->weight.copy_(on_cpu->weight);
    on_cuda->bias.copy_(on_cpu->bias);
  }
  on_cuda->to(kCuda0);
  EXPECT_EQ(on_cuda->weight.device(), kCuda0);
  const pl::Tensor input = random_on_cpu({4, 8});
  expect_matches_cpu(on_cuda->forward(input.to(kCuda0)), on_cpu->forward(input), 1e-5, 1e-5);
}

// ---- placement errors ---------------------------------------------------------

TEST_F(CudaTest, CudaWithCpuOperandIsMixedDevice) {
  const pl::Tensor on_cuda = pl::ones({3}, pl::device(kCuda0));
  const pl::Tensor on_cpu = pl::ones({3});
  try {
    (void)(on_cuda + on_cpu);
    FAIL() << "cuda:0 + cpu did not throw";
  } catch (const pl::DeviceMismatchError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with(PL_RULE_ID_MixedDevice)) << message;
    EXPECT_NE(message.find("cuda:0"), std::string::npos) << message;
    EXPECT_NE(message.find("cpu"), std::string::npos) << message;
  }
}

TEST_F(TwoGpuTest, Cuda0WithCuda1IsMixedDevice) {
  const pl::Tensor a = pl::ones({3}, pl::device(pl::Device("cuda:0")));
  const pl::Tensor b = pl::ones({3}, pl::device(pl::Device("cuda:1")));
  try {
    (void)a.matmul(b);
    FAIL() << "cuda:0 with cuda:1 did not throw";
  } catch (const pl::DeviceMismatchError &error) {
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with(PL_RULE_ID_MixedDevice)) << message;
    EXPECT_NE(message.find("cuda:1"), std::string::npos) << message;
  }
}

TEST_F(TwoGpuTest, CopyBetweenDevicesKeepsValues) {
  pl::manual_seed(17);
  const pl::Tensor host = random_on_cpu({1000});
  const pl::Tensor on1 = host.to(kCuda0).to(pl::Device("cuda:1"));
  EXPECT_EQ(on1.device(), pl::Device("cuda:1"));
  EXPECT_TRUE(on1.cpu().equal(host));
  EXPECT_TRUE(on1.to(kCuda0).cpu().equal(host));
}

// ---- memory ---------------------------------------------------------------

TEST_F(CudaTest, FreedBlockIsReusedForSameSize) {
  void *first = nullptr;
  {
    const pl::Tensor t = pl::empty({1 << 20}, pl::device(kCuda0));
    first = t.data_ptr();
  }
  const pl::Tensor again = pl::empty({1 << 20}, pl::device(kCuda0));
  EXPECT_EQ(again.data_ptr(), first);
}

TEST_F(CudaTest, ImpossibleAllocationThrowsAllocationErrorAndLeavesDeviceUsable) {
  try {
    (void)pl::empty({std::int64_t{1} << 48}, pl::device(kCuda0)); // 1 PiB of floats
    FAIL() << "allocating 1 PiB did not throw";
  } catch (const pl::AllocationError &error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("cuda:0"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot allocate"), std::string::npos) << message;
  }
  EXPECT_EQ((pl::ones({4}, pl::device(kCuda0)) * 2).sum().item<float>(), 8.0f);
}

} // namespace
