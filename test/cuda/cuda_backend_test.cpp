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

pl::Tensor randomOnCpu(pl::IntArrayRef sizes, pl::ScalarType dtype = pl::kFloat) {
  return pl::randn(sizes, pl::dtype(dtype));
}

// `onCuda` was computed on cuda:0 and must match `onCpu` (same dtype, sizes,
// values within tolerance for floating types, exactly otherwise).
void expectMatchesCpu(const pl::Tensor &onCuda, const pl::Tensor &onCpu, double rtol = 1e-5,
                      double atol = 1e-6) {
  ASSERT_EQ(onCuda.device(), kCuda0);
  ASSERT_TRUE(onCpu.is_cpu());
  const pl::Tensor back = onCuda.cpu();
  ASSERT_EQ(back.dtype(), onCpu.dtype());
  ASSERT_EQ(back.sizes().vec(), onCpu.sizes().vec());
  if (onCpu.is_floating_point())
    EXPECT_TRUE(back.allclose(onCpu, rtol, atol)) << "cuda:\n" << back << "\ncpu:\n" << onCpu;
  else
    EXPECT_TRUE(back.equal(onCpu)) << "cuda:\n" << back << "\ncpu:\n" << onCpu;
}

// ---- transfers -------------------------------------------------------------

TEST_F(CudaTest, RoundTripKeepsValuesOfEveryDtype) {
  pl::manual_seed(1);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble, pl::kLong, pl::kBool}) {
    const pl::Tensor host = (randomOnCpu({7, 5}) * 10).to(dtype);
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
  const pl::Tensor host = randomOnCpu({4, 6});
  const pl::Tensor device = pl::empty({4, 6}, pl::device(kCuda0));
  device.copy_(host);
  const pl::Tensor hostAgain = pl::empty({4, 6});
  hostAgain.copy_(device);
  EXPECT_TRUE(hostAgain.equal(host));
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
    expectMatchesCpu(pl::zeros({3, 4}, cuda), pl::zeros({3, 4}, cpu));
    expectMatchesCpu(pl::ones({3, 4}, cuda), pl::ones({3, 4}, cpu));
    expectMatchesCpu(pl::full({2, 2}, 3, cuda), pl::full({2, 2}, 3, cpu));
  }
  expectMatchesCpu(pl::arange(0, 10, 3, pl::device(kCuda0)), pl::arange(0, 10, 3));
  expectMatchesCpu(pl::tensor({1.5, -2.0}, pl::device(kCuda0)), pl::tensor({1.5, -2.0}));
  pl::manual_seed(3);
  const pl::Tensor onCuda = pl::randn({64}, pl::device(kCuda0));
  pl::manual_seed(3);
  expectMatchesCpu(onCuda, pl::randn({64}));
}

TEST_F(CudaTest, FillInPlaceOnStridedView) {
  const pl::Tensor cpu = pl::zeros({4, 6});
  const pl::Tensor cuda = cpu.to(kCuda0);
  cpu.transpose(0, 1).narrow(0, 1, 3).fill_(5);
  cuda.transpose(0, 1).narrow(0, 1, 3).fill_(5);
  expectMatchesCpu(cuda, cpu);
}

TEST_F(CudaTest, StridedCopyAndCastMatchCpu) {
  pl::manual_seed(4);
  const pl::Tensor cpu = randomOnCpu({5, 7, 3}) * 4;
  const pl::Tensor cuda = cpu.to(kCuda0);
  expectMatchesCpu(cuda.transpose(0, 2).contiguous(), cpu.transpose(0, 2).contiguous());
  expectMatchesCpu(cuda.narrow(1, 2, 4).clone(), cpu.narrow(1, 2, 4).clone());
  for (pl::ScalarType dtype : {pl::kDouble, pl::kLong, pl::kBool})
    expectMatchesCpu(cuda.transpose(1, 2).to(dtype), cpu.transpose(1, 2).to(dtype));
  expectMatchesCpu(cuda.to(pl::kLong).to(pl::kFloat), cpu.to(pl::kLong).to(pl::kFloat));
}

TEST_F(CudaTest, CopyBroadcastsIntoDestination) {
  const pl::Tensor cpu = pl::zeros({3, 4});
  const pl::Tensor cuda = cpu.to(kCuda0);
  const pl::Tensor row = pl::arange(4, pl::dtype(pl::kDouble));
  cpu.copy_(row);
  cuda.copy_(row.to(kCuda0));
  expectMatchesCpu(cuda, cpu);
}

// ---- elementwise -----------------------------------------------------------

TEST_F(CudaTest, UnaryOpsMatchCpu) {
  pl::manual_seed(5);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor cpu = randomOnCpu({33, 17}, dtype);
    const pl::Tensor cuda = cpu.to(kCuda0);
    expectMatchesCpu(cuda.neg(), cpu.neg());
    expectMatchesCpu(cuda.relu(), cpu.relu());
    expectMatchesCpu(cuda.exp(), cpu.exp());
    expectMatchesCpu(cuda.exp().log(), cpu.exp().log());
    expectMatchesCpu(cuda.t().relu(), cpu.t().relu());
  }
  const pl::Tensor longs = pl::arange(-5, 5);
  expectMatchesCpu(longs.to(kCuda0).neg(), longs.neg());
  expectMatchesCpu(longs.to(kCuda0).relu(), longs.relu());
}

TEST_F(CudaTest, UnaryInPlaceMatchesCpu) {
  pl::manual_seed(6);
  const pl::Tensor cpu = randomOnCpu({100});
  const pl::Tensor cuda = cpu.to(kCuda0);
  cpu.relu_().neg_();
  cuda.relu_().neg_();
  expectMatchesCpu(cuda, cpu);
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
    const pl::Tensor a = randomOnCpu({4, 1, 6}, dtype);
    const pl::Tensor b = randomOnCpu({3, 1}, dtype).exp(); // nonzero divisor
    const pl::Tensor ca = a.to(kCuda0), cb = b.to(kCuda0);
    expectMatchesCpu(ca + cb, a + b);
    expectMatchesCpu(ca - cb, a - b);
    expectMatchesCpu(ca * cb, a * b);
    expectMatchesCpu(ca / cb, a / b);
    expectMatchesCpu(cb.t() * ca.transpose(1, 2), b.t() * a.transpose(1, 2));
  }
}

TEST_F(CudaTest, IntegerAndBoolBinaryOpsMatchCpu) {
  const pl::Tensor a = pl::arange(-6, 6).view({3, 4});
  const pl::Tensor b = pl::arange(4);
  expectMatchesCpu(a.to(kCuda0) + b.to(kCuda0), a + b);
  expectMatchesCpu(a.to(kCuda0) - b.to(kCuda0), a - b);
  expectMatchesCpu(a.to(kCuda0) * b.to(kCuda0), a * b);
  const pl::Tensor p = pl::tensor({true, false, true, false});
  const pl::Tensor q = pl::tensor({true, true, false, false});
  expectMatchesCpu(p.to(kCuda0) + q.to(kCuda0), p + q);
  expectMatchesCpu(p.to(kCuda0) * q.to(kCuda0), p * q);
}

TEST_F(CudaTest, ScalarOperandsMatchCpu) {
  pl::manual_seed(8);
  const pl::Tensor a = randomOnCpu({5, 5});
  const pl::Tensor ca = a.to(kCuda0);
  expectMatchesCpu(ca + 2, a + 2);
  expectMatchesCpu(2 - ca, 2 - a);
  expectMatchesCpu(ca * 0.5, a * 0.5);
  expectMatchesCpu(3 / ca.exp(), 3 / a.exp());
  expectMatchesCpu(ca.t() / 4, a.t() / 4);
  const pl::Tensor longs = pl::arange(10);
  expectMatchesCpu(longs.to(kCuda0) * 3, longs * 3);
  expectMatchesCpu(longs.to(kCuda0) / 4, longs / 4); // true division: Float
}

TEST_F(CudaTest, CpuZeroDimTensorTakesPartAsScalar) {
  const pl::Tensor a = pl::arange(6, pl::dtype(pl::kFloat));
  const pl::Tensor scale = pl::tensor(2.0);
  const pl::Tensor result = a.to(kCuda0) * scale;
  expectMatchesCpu(result, a * scale);
}

TEST_F(CudaTest, InPlaceBinaryWithBroadcastMatchesCpu) {
  pl::manual_seed(9);
  const pl::Tensor cpu = randomOnCpu({6, 8});
  const pl::Tensor cuda = cpu.to(kCuda0);
  const pl::Tensor row = randomOnCpu({8});
  cpu.add_(row).mul_(3).sub_(cpu).div_(2);
  cuda.add_(row.to(kCuda0)).mul_(3).sub_(cuda).div_(2);
  expectMatchesCpu(cuda, cpu);
  cpu.narrow(1, 2, 3) += 1;
  cuda.narrow(1, 2, 3) += 1;
  expectMatchesCpu(cuda, cpu);
}

TEST_F(CudaTest, LargeElementwiseMatchesCpu) {
  pl::manual_seed(10);
  const pl::Tensor a = randomOnCpu({1 << 20});
  const pl::Tensor b = randomOnCpu({1 << 20});
  expectMatchesCpu(a.to(kCuda0) * b.to(kCuda0) + 1, a * b + 1);
}

// ---- reductions -------------------------------------------------------------

TEST_F(CudaTest, ReductionsOverAllMatchCpu) {
  pl::manual_seed(11);
  // Sizes on both sides of the kernel choices: few elements, one block per
  // output, and a reduction split across blocks.
  for (std::int64_t n : {1, 7, 32, 33, 1000, 100000, 3000001}) {
    const pl::Tensor cpu = randomOnCpu({n}, pl::kDouble);
    const pl::Tensor cuda = cpu.to(kCuda0);
    expectMatchesCpu(cuda.sum(), cpu.sum(), 1e-9, 1e-9);
    expectMatchesCpu(cuda.mean(), cpu.mean(), 1e-9, 1e-9);
    expectMatchesCpu(cuda.max(), cpu.max());
    expectMatchesCpu(cuda.argmax(), cpu.argmax());
  }
}

TEST_F(CudaTest, ReductionsOverDimsMatchCpu) {
  pl::manual_seed(12);
  const pl::Tensor cpu = randomOnCpu({6, 50, 40});
  const pl::Tensor cuda = cpu.to(kCuda0);
  for (std::int64_t dim : {0, 1, 2}) {
    expectMatchesCpu(cuda.sum({dim}), cpu.sum({dim}), 1e-4, 1e-5);
    expectMatchesCpu(cuda.mean({dim}, /*keepdim=*/true), cpu.mean({dim}, true), 1e-4, 1e-5);
    const auto [values, indices] = cuda.max(dim);
    const auto [cpuValues, cpuIndices] = cpu.max(dim);
    expectMatchesCpu(values, cpuValues);
    expectMatchesCpu(indices, cpuIndices);
    expectMatchesCpu(cuda.argmax(dim, true), cpu.argmax(dim, true));
  }
  expectMatchesCpu(cuda.sum({0, 2}), cpu.sum({0, 2}), 1e-4, 1e-4);
  expectMatchesCpu(cuda.transpose(0, 2).sum({1}), cpu.transpose(0, 2).sum({1}), 1e-4, 1e-5);
}

TEST_F(CudaTest, IntegerSumMatchesCpuExactly) {
  const pl::Tensor cpu = pl::arange(200000).view({400, 500});
  expectMatchesCpu(cpu.to(kCuda0).sum(), cpu.sum());
  expectMatchesCpu(cpu.to(kCuda0).sum({1}), cpu.sum({1}));
  const pl::Tensor flags = pl::tensor({true, false, true, true});
  expectMatchesCpu(flags.to(kCuda0).sum(), flags.sum()); // counts the true ones
}

TEST_F(CudaTest, MaxPropagatesNanAndArgMaxTakesFirst) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const pl::Tensor withNan = pl::tensor({1.0, nan, 3.0, nan});
  EXPECT_TRUE(std::isnan(withNan.to(kCuda0).max().item<double>()));
  EXPECT_EQ(withNan.to(kCuda0).argmax().item<std::int64_t>(), 1);
  const pl::Tensor ties = pl::tensor({2.0, 5.0, 5.0, 1.0, 5.0});
  EXPECT_EQ(ties.to(kCuda0).argmax().item<std::int64_t>(), 1);
  // Ties across the blocks of a split reduction: the first index still wins.
  const pl::Tensor manyTies = pl::ones({1 << 20});
  EXPECT_EQ(manyTies.to(kCuda0).argmax().item<std::int64_t>(), 0);
}

TEST_F(CudaTest, EmptyReductionsGiveIdentity) {
  const pl::Tensor empty = pl::zeros({0, 3}, pl::device(kCuda0));
  expectMatchesCpu(empty.sum({0}), pl::zeros({3}));
  const pl::Tensor means = empty.mean({0}).cpu();
  for (std::int64_t i = 0; i < 3; ++i)
    EXPECT_TRUE(std::isnan(means[i].item<float>()));
}

// ---- matmul (cuBLAS) --------------------------------------------------------

TEST_F(CudaTest, MatmulMatchesCpu) {
  pl::manual_seed(13);
  for (pl::ScalarType dtype : {pl::kFloat, pl::kDouble}) {
    const pl::Tensor a = randomOnCpu({37, 53}, dtype);
    const pl::Tensor b = randomOnCpu({53, 29}, dtype);
    const pl::Tensor ca = a.to(kCuda0), cb = b.to(kCuda0);
    expectMatchesCpu(ca.matmul(cb), a.matmul(b), 1e-4, 1e-4);
    expectMatchesCpu(pl::mm(cb.t(), ca.t()), pl::mm(b.t(), a.t()), 1e-4, 1e-4);
    expectMatchesCpu(ca.matmul(cb.narrow(1, 0, 1).squeeze(1)),
                     a.matmul(b.narrow(1, 0, 1).squeeze(1)), 1e-4, 1e-4);
  }
}

TEST_F(CudaTest, BatchedMatmulMatchesCpu) {
  pl::manual_seed(14);
  const pl::Tensor a = randomOnCpu({5, 8, 16});
  const pl::Tensor b = randomOnCpu({5, 16, 4});
  expectMatchesCpu(a.to(kCuda0).matmul(b.to(kCuda0)), a.matmul(b), 1e-4, 1e-4);
  const pl::Tensor shared = randomOnCpu({16, 3});
  expectMatchesCpu(a.to(kCuda0).matmul(shared.to(kCuda0)), a.matmul(shared), 1e-4, 1e-4);
}

TEST_F(CudaTest, MatmulWithEmptyInnerDimensionIsZeros) {
  const pl::Tensor a = pl::ones({3, 0}, pl::device(kCuda0));
  const pl::Tensor b = pl::ones({0, 2}, pl::device(kCuda0));
  expectMatchesCpu(a.matmul(b), pl::zeros({3, 2}));
}

TEST_F(CudaTest, CatAndStackMatchCpu) {
  pl::manual_seed(15);
  const pl::Tensor a = randomOnCpu({2, 3});
  const pl::Tensor b = randomOnCpu({4, 3});
  expectMatchesCpu(pl::cat({a.to(kCuda0), b.to(kCuda0)}, 0), pl::cat({a, b}, 0));
  expectMatchesCpu(pl::stack({a.to(kCuda0), a.to(kCuda0)}, 1), pl::stack({a, a}, 1));
}

TEST_F(CudaTest, LinearModuleRunsOnCuda) {
  pl::manual_seed(16);
  pl::nn::Linear onCpu(8, 3);
  pl::nn::Linear onCuda(8, 3);
  onCuda->weight.copy_(onCpu->weight);
  onCuda->bias.copy_(onCpu->bias);
  onCuda->to(kCuda0);
  EXPECT_EQ(onCuda->weight.device(), kCuda0);
  const pl::Tensor input = randomOnCpu({4, 8});
  expectMatchesCpu(onCuda->forward(input.to(kCuda0)), onCpu->forward(input), 1e-5, 1e-5);
}

// ---- placement errors ---------------------------------------------------------

TEST_F(CudaTest, CudaWithCpuOperandIsMixedDevice) {
  const pl::Tensor onCuda = pl::ones({3}, pl::device(kCuda0));
  const pl::Tensor onCpu = pl::ones({3});
  try {
    (void)(onCuda + onCpu);
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
  const pl::Tensor host = randomOnCpu({1000});
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
