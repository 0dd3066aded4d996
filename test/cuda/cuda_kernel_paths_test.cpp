// The CUDA kernels' fast paths against the cpu backend: the vectorised
// contiguous elementwise kernel (whole 16-byte packs, then a tail of fewer
// than a pack), its one-element-at-a-time form for views that are not
// 16-byte aligned, in-place forms, casts between dtypes of different widths,
// and the reductions' plans (all elements, long rows, many short rows,
// columns, strided views) for every dtype. Skipped, saying why, without a GPU.
#include <pl/pl.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

const pl::Device kCuda0("cuda:0");

class CudaKernelPaths : public ::testing::Test {
protected:
  void SetUp() override {
    if (!pl::cuda::is_available())
      GTEST_SKIP() << "no CUDA GPU is available (pl::cuda::is_available() is false)";
  }
};

// Sizes around pack boundaries (4 floats, 2 doubles or longs, 16 bools a
// pack), and one past the largest grid's first sweep.
const std::vector<std::int64_t> kLengths = {0, 1, 3, 4, 5, 15, 16, 17, 33, 1000, (1 << 20) + 3};
const std::vector<pl::ScalarType> kDtypes = {pl::kFloat, pl::kDouble, pl::kLong, pl::kBool};

// Small integers, exactly representable in every dtype (as bools: nonzero
// except every `period`-th), so every backend computes the same values.
pl::Tensor values_of(std::int64_t n, pl::ScalarType dtype, std::int64_t period = 7) {
  std::vector<double> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<double>(i % period);
  return pl::tensor(values, pl::dtype(pl::kDouble)).to(dtype);
}

void expect_same(const pl::Tensor &on_cuda, const pl::Tensor &on_cpu) {
  ASSERT_EQ(on_cuda.device(), kCuda0);
  const pl::Tensor back = on_cuda.cpu();
  ASSERT_EQ(back.dtype(), on_cpu.dtype());
  ASSERT_EQ(back.sizes().vec(), on_cpu.sizes().vec());
  if (on_cpu.is_floating_point())
    EXPECT_TRUE(back.allclose(on_cpu, 1e-5, 1e-3)) << on_cpu.sizes() << " " << on_cpu.dtype();
  else
    EXPECT_TRUE(back.equal(on_cpu)) << on_cpu.sizes() << " " << on_cpu.dtype();
}

// Runs `op` on cpu operands and on their cuda copies and compares.
template <class Op> void expect_op_matches(const pl::Tensor &a, const pl::Tensor &b, Op op) {
  expect_same(op(a.to(kCuda0), b.to(kCuda0)), op(a, b));
}

void expect_elementwise_matches(const pl::Tensor &a, const pl::Tensor &b) {
  const pl::ScalarType dtype = a.dtype();
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &y) { return x + y; });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &y) { return x * y; });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return x * 3; });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return x.to(pl::kDouble); });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return x.to(pl::kBool); });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) {
    return x.clone().fill_(1);
  });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &y) {
    return x.clone().add_(y); // in place: output and first input are one
  });
  if (dtype == pl::kBool)
    return;
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &y) { return x - y; });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return 10 - x; });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return (x - 3).relu(); });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return -x; });
  if (!a.is_floating_point())
    return;
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &y) { return x / (y + 1); });
  expect_op_matches(a, b, [](const pl::Tensor &x, const pl::Tensor &) { return x.exp(); });
}

TEST_F(CudaKernelPaths, ElementwiseOnEveryLengthAndDtype) {
  for (pl::ScalarType dtype : kDtypes)
    for (std::int64_t n : kLengths)
      expect_elementwise_matches(values_of(n, dtype), values_of(n, dtype, 5));
}

TEST_F(CudaKernelPaths, ElementwiseOnViewsThatAreNotPackAligned) {
  // One element in: contiguous but not 16-byte aligned.
  for (pl::ScalarType dtype : kDtypes)
    for (std::int64_t n : {std::int64_t{2}, std::int64_t{18}, std::int64_t{1} << 16})
      expect_elementwise_matches(values_of(n, dtype).narrow(0, 1, n - 1),
                                 values_of(n, dtype, 5).narrow(0, 1, n - 1));
}

TEST_F(CudaKernelPaths, ElementwiseOnStridedAndBroadcastOperands) {
  for (pl::ScalarType dtype : kDtypes) {
    const pl::Tensor matrix = values_of(37 * 41, dtype).view({37, 41});
    expect_elementwise_matches(matrix.t(), values_of(41 * 37, dtype, 5).view({41, 37}));
    expect_op_matches(matrix, values_of(41, dtype, 5),
                      [](const pl::Tensor &x, const pl::Tensor &row) { return x + row; });
  }
}

TEST_F(CudaKernelPaths, ReductionsOverEveryPlanAndDtype) {
  const std::vector<std::vector<std::int64_t>> shapes = {
      {(1 << 20) + 3}, {3, 100003}, {100003, 3}, {1000, 1000}, {7, 0}};
  for (pl::ScalarType dtype : kDtypes) {
    for (const auto &shape : shapes) {
      std::int64_t n = 1;
      for (std::int64_t size : shape)
        n *= size;
      const pl::Tensor host = values_of(n, dtype, 11).view(shape);
      const pl::Tensor device = host.to(kCuda0);
      for (const pl::Tensor &view : {host, host.dim() == 2 ? host.t() : host}) {
        const pl::Tensor on_gpu = view.is_same(host) ? device : device.t();
        if (dtype != pl::kBool)
          expect_same(on_gpu.sum(), view.sum());
        if (view.numel() == 0)
          continue; // (the mean of nothing is NaN, which compares unequal)
        if (view.is_floating_point())
          expect_same(on_gpu.mean(), view.mean());
        expect_same(on_gpu.max(), view.max());
        expect_same(on_gpu.argmax(), view.argmax());
        for (std::int64_t dim = 0; dim < view.dim(); ++dim) {
          if (dtype != pl::kBool)
            expect_same(on_gpu.sum({dim}), view.sum({dim}));
          if (view.is_floating_point())
            expect_same(on_gpu.mean({dim}, /*keepdim=*/true), view.mean({dim}, true));
          expect_same(std::get<0>(on_gpu.max(dim)), std::get<0>(view.max(dim)));
          expect_same(on_gpu.argmax(dim), view.argmax(dim));
        }
      }
    }
  }
}

} // namespace
