// Pinned memory, non_blocking copies in both directions, streams and
// synchronisation through the public pl API, as libtorch offers them. Each
// test is skipped, saying why, where no CUDA GPU is available.
#include <pl/pl.h>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace {

const pl::Device kCuda0("cuda:0");

class CudaStreamsTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!pl::cuda::is_available())
      GTEST_SKIP() << "no CUDA GPU is available (pl::cuda::is_available() is false)";
  }
};

TEST_F(CudaStreamsTest, PinMemoryCopiesIntoPinnedMemoryOnce) {
  const pl::Tensor host = pl::arange(1000, pl::dtype(pl::kFloat));
  EXPECT_FALSE(host.is_pinned());
  const pl::Tensor pinned = host.pin_memory();
  EXPECT_TRUE(pinned.is_pinned());
  EXPECT_TRUE(pinned.is_cpu());
  EXPECT_FALSE(pinned.is_same(host));
  EXPECT_TRUE(pinned.equal(host));
  EXPECT_TRUE(pinned.pin_memory().is_same(pinned)) << "pinning a pinned tensor returns it";
  EXPECT_TRUE(pinned.narrow(0, 10, 5).is_pinned()) << "views share the pinned storage";
}

TEST_F(CudaStreamsTest, FactoriesMakePinnedTensorsOnRequest) {
  const auto pinned = pl::TensorOptions().pinned_memory(true);
  EXPECT_TRUE(pl::empty({8}, pinned).is_pinned());
  const pl::Tensor zeros = pl::zeros({8}, pinned);
  EXPECT_TRUE(zeros.is_pinned());
  EXPECT_TRUE(zeros.equal(pl::zeros({8})));
  EXPECT_TRUE(pl::rand({8}, pinned).is_pinned());
  EXPECT_TRUE(pl::tensor({1.0, 2.0}, pinned).is_pinned());
  EXPECT_FALSE(pl::empty({8}).is_pinned());
  EXPECT_THROW((void)pl::empty({8}, pinned.device(kCuda0)), pl::DeviceError)
      << "only cpu tensors can be pinned";
}

TEST_F(CudaStreamsTest, NonBlockingUploadFromPinnedMemoryKeepsItsValues) {
  pl::Tensor pinned = pl::arange(1 << 20, pl::dtype(pl::kFloat)).pin_memory();
  const pl::Tensor on_gpu = pinned.to(kCuda0, pl::kFloat, /*non_blocking=*/true);
  // Dropping the source at once is safe: its block is not reused before the
  // copy has read it.
  pinned = pl::Tensor();
  const pl::Tensor scribble = pl::full({1 << 20}, -1.0, pl::TensorOptions().pinned_memory(true));
  pl::cuda::synchronize();
  EXPECT_TRUE(on_gpu.cpu().equal(pl::arange(1 << 20, pl::dtype(pl::kFloat))));
  EXPECT_EQ(scribble[0].item<float>(), -1.0f);
}

TEST_F(CudaStreamsTest, NonBlockingDownloadGivesAPinnedTensorValidAfterSync) {
  const pl::Tensor on_gpu = pl::arange(1 << 20, pl::TensorOptions(kCuda0).dtype(pl::kFloat));
  const pl::Tensor host = on_gpu.to(pl::TensorOptions(pl::kCPU), /*non_blocking=*/true);
  EXPECT_TRUE(host.is_cpu());
  EXPECT_TRUE(host.is_pinned());
  pl::cuda::synchronize();
  EXPECT_TRUE(host.equal(pl::arange(1 << 20, pl::dtype(pl::kFloat))));
  const pl::Tensor blocking = on_gpu.cpu();
  EXPECT_FALSE(blocking.is_pinned()) << "a blocking copy lands in ordinary memory";
}

TEST_F(CudaStreamsTest, NonBlockingDownloadThatWidensOnTheHostIsSynchronous) {
  const pl::Tensor on_gpu = pl::arange(1 << 20, pl::TensorOptions(kCuda0).dtype(pl::kFloat));
  const pl::Tensor host = on_gpu.to(pl::kCPU, pl::kDouble, /*non_blocking=*/true);
  EXPECT_TRUE(host.equal(pl::arange(1 << 20, pl::dtype(pl::kDouble))))
      << "the widening on the host reads the copy, so it must have finished";
}

TEST_F(CudaStreamsTest, NonBlockingCopyIntoAHostTensorIsCompleteOnReturn) {
  const pl::Tensor on_gpu = pl::arange(1 << 20, pl::TensorOptions(kCuda0).dtype(pl::kFloat));
  const pl::Tensor host = pl::empty({1 << 20}, pl::TensorOptions().pinned_memory(true));
  host.copy_(on_gpu, /*non_blocking=*/true);
  EXPECT_TRUE(host.equal(pl::arange(1 << 20, pl::dtype(pl::kFloat))));
}

TEST_F(CudaStreamsTest, CurrentStreamIsTheDefaultUntilSet) {
  const pl::cuda::CUDAStream current = pl::cuda::getCurrentCUDAStream();
  EXPECT_EQ(current, pl::cuda::getDefaultCUDAStream());
  EXPECT_EQ(current.native_handle(), nullptr);
  EXPECT_EQ(current.device(), kCuda0);
}

TEST_F(CudaStreamsTest, GuardSetsAndRestoresTheCurrentStream) {
  const pl::cuda::CUDAStream side = pl::cuda::getStreamFromPool();
  EXPECT_NE(side.native_handle(), nullptr);
  EXPECT_NE(side, pl::cuda::getDefaultCUDAStream());
  {
    const pl::cuda::CUDAStreamGuard guard(side);
    EXPECT_EQ(pl::cuda::getCurrentCUDAStream(), side);
    EXPECT_EQ(guard.original_stream(), pl::cuda::getDefaultCUDAStream());
  }
  EXPECT_EQ(pl::cuda::getCurrentCUDAStream(), pl::cuda::getDefaultCUDAStream());
}

// A CUDAStream is a pl::Stream of a CUDA device: the generic API sees the
// stream that the CUDA spellings set, and the other way round.
TEST_F(CudaStreamsTest, CudaStreamsAreTheGenericStreamsOfTheDevice) {
  const pl::cuda::CUDAStream side = pl::cuda::getStreamFromPool();
  const pl::cuda::CUDAStreamGuard guard(side);
  EXPECT_EQ(pl::getCurrentStream(kCuda0), side.unwrap());
  const pl::Stream generic = pl::getStreamFromPool(kCuda0);
  pl::setCurrentStream(generic);
  EXPECT_EQ(pl::cuda::getCurrentCUDAStream(), pl::cuda::CUDAStream(generic));
}

TEST_F(CudaStreamsTest, TheCurrentStreamIsPerThread) {
  const pl::cuda::CUDAStream side = pl::cuda::getStreamFromPool();
  const pl::cuda::CUDAStreamGuard guard(side);
  pl::cuda::CUDAStream seen_elsewhere = side;
  std::thread([&] { seen_elsewhere = pl::cuda::getCurrentCUDAStream(); }).join();
  EXPECT_EQ(seen_elsewhere, pl::cuda::getDefaultCUDAStream());
}

TEST_F(CudaStreamsTest, WorkOnASideStreamIsCompleteAfterItsSynchronize) {
  const pl::cuda::CUDAStream side = pl::cuda::getStreamFromPool();
  pl::Tensor result;
  {
    const pl::cuda::CUDAStreamGuard guard(side);
    const pl::Tensor a = pl::ones({1 << 22}, pl::device(kCuda0));
    result = (a + a).sum();
    side.synchronize();
    EXPECT_TRUE(side.query());
  }
  EXPECT_EQ(result.item<float>(), 2.0f * (1 << 22));
}

TEST_F(CudaStreamsTest, MatmulRunsOnTheCurrentStream) {
  const pl::Tensor a = pl::randn({64, 64}, pl::device(kCuda0));
  const pl::Tensor expected = a.cpu().matmul(a.cpu());
  const pl::cuda::CUDAStream side = pl::cuda::getStreamFromPool();
  pl::Tensor product;
  {
    const pl::cuda::CUDAStreamGuard guard(side);
    product = a.matmul(a);
    side.synchronize();
  }
  EXPECT_TRUE(product.cpu().allclose(expected, 1e-4, 1e-4));
}

TEST_F(CudaStreamsTest, PoolStreamsComeInTurn) {
  std::vector<void *> handles;
  for (int i = 0; i < 4; ++i)
    handles.push_back(pl::cuda::getStreamFromPool().native_handle());
  EXPECT_NE(handles[0], handles[1]);
  EXPECT_NE(handles[1], handles[2]);
  EXPECT_NE(pl::cuda::getStreamFromPool(/*isHighPriority=*/true).native_handle(), nullptr);
}

} // namespace
