// The CUDA backend: the caching allocators (device memory, pinned host
// memory), transfers, the kernel table, cuBLAS gemm and streams. Every call
// makes its device current for its duration and queues its work on the
// calling thread's current stream there (stream_pool.h), so work on one
// stream runs in call order.
#include "caching_allocator.h"
#include "cuda_error.h"
#include "cuda_event.h"
#include "device_context.h"
#include "kernels.h"
#include "pinned_host_allocator.h"
#include "stream_pool.h"

#include "core/builtin_backends.h"

#include <cstring>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <memory>
#include <mutex>
#include <vector>

namespace pl::cuda::detail {
namespace {

using backend::GemmArgs;

// One cuBLAS handle per device, created on first use (it allocates device
// workspace and takes milliseconds). Never destroyed: at exit the contexts
// may already be gone, and cublasDestroy would fail (PyTorch leaks them too).
// A handle carries its stream, and threads may have different current
// streams: run(handle) is called with the handle set to `stream` under a
// lock held until cuBLAS has queued the work (it does not wait for it).
template <class Run> void with_cublas(int device, cudaStream_t stream, Run &&run) {
  static std::mutex mutex;
  static auto *const handles = new std::vector<cublasHandle_t>();
  std::lock_guard lock(mutex);
  const auto index = static_cast<std::size_t>(device);
  if (index >= handles->size())
    handles->resize(index + 1, nullptr);
  cublasHandle_t &handle = (*handles)[index];
  if (handle == nullptr) {
    PL_CUBLAS_CHECK(cublasCreate(&handle));
    // No TF32 for float (that needs CUBLAS_TF32_TENSOR_OP_MATH), so results
    // agree with the CPU backend's within float rounding.
    PL_CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  }
  PL_CUBLAS_CHECK(cublasSetStream(handle, stream));
  run(handle);
}

// cuBLAS rejects a leading dimension below the stored row length even when
// there is one row and it is never used to step; any value is right then.
std::int64_t leading_dimension(std::int64_t ld, std::int64_t rows, std::int64_t cols) {
  return rows <= 1 && ld < cols ? (cols > 0 ? cols : 1) : ld;
}

template <class T> struct CublasGemm;
template <> struct CublasGemm<float> {
  static constexpr auto plain = cublasSgemm_64;
  static constexpr auto batched = cublasSgemmStridedBatched_64;
};
template <> struct CublasGemm<double> {
  static constexpr auto plain = cublasDgemm_64;
  static constexpr auto batched = cublasDgemmStridedBatched_64;
};

template <class T> void run_gemm(cublasHandle_t handle, const GemmArgs &g) {
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the
  // stored row-major matrices read as column-major are already transposed,
  // so swap the operands and keep each one's op.
  const T one = 1, zero = 0;
  const cublasOperation_t op_a = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const std::int64_t lda =
      g.trans_a ? leading_dimension(g.lda, g.k, g.m) : leading_dimension(g.lda, g.m, g.k);
  const std::int64_t ldb =
      g.trans_b ? leading_dimension(g.ldb, g.n, g.k) : leading_dimension(g.ldb, g.k, g.n);
  const std::int64_t ldc = leading_dimension(g.ldc, g.m, g.n);
  const auto *a = static_cast<const T *>(g.a);
  const auto *b = static_cast<const T *>(g.b);
  auto *c = static_cast<T *>(g.c);
  if (g.batch == 1)
    PL_CUBLAS_CHECK(CublasGemm<T>::plain(handle, op_b, op_a, g.n, g.m, g.k, &one, b, ldb, a, lda,
                                         &zero, c, ldc));
  else
    PL_CUBLAS_CHECK(CublasGemm<T>::batched(handle, op_b, op_a, g.n, g.m, g.k, &one, b, ldb,
                                           g.batch_stride_b, a, lda, g.batch_stride_a, &zero, c,
                                           ldc, g.batch_stride_c, g.batch));
}

class CudaBackend final : public backend::Backend {
public:
  void *allocate(DeviceIndex device, std::size_t nbytes) override {
    return caching_allocator().allocate(device, nbytes, detail::current_stream(device));
  }

  void deallocate(DeviceIndex device, void *ptr, std::size_t nbytes) noexcept override {
    caching_allocator().deallocate(device, ptr, nbytes);
  }

  void copy_from_host(void *dst, DeviceIndex dst_device, const void *src, std::size_t nbytes,
                      bool non_blocking) override {
    DeviceGuard guard(dst_device);
    const cudaStream_t stream = detail::current_stream(dst_device);
    if (!non_blocking) {
      PL_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream));
      PL_CUDA_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    // From pinned memory (the front end's contract: pageable memory and
    // memory pinned outside pl are copied synchronously): one asynchronous
    // DMA, and the source block is not reused before it has finished.
    PL_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream));
    const bool pinned = pinned_host_allocator().record_use(src, dst_device, stream);
    PL_ASSERT(pinned);
  }

  void copy_to_host(void *dst, const void *src, DeviceIndex src_device, std::size_t nbytes,
                    bool non_blocking) override {
    DeviceGuard guard(src_device);
    const cudaStream_t stream = detail::current_stream(src_device);
    PL_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
    if (non_blocking) {
      // dst is pinned (the front end's contract): keep its block from being
      // reused before the DMA into it has finished.
      const bool pinned = pinned_host_allocator().record_use(dst, src_device, stream);
      PL_ASSERT(pinned);
      return;
    }
    PL_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  void copy_between_devices(void *dst, DeviceIndex dst_device, const void *src,
                            DeviceIndex src_device, std::size_t nbytes) override {
    // Ordered after all work queued on both devices and before later work on
    // either, so the source may be freed and the destination read at once.
    PL_CUDA_CHECK(cudaMemcpyPeer(dst, dst_device, src, src_device, nbytes));
  }

  void fill(DeviceIndex device, const TensorArg &out, ScalarArg value) override {
    DeviceGuard guard(device);
    launch_fill(detail::current_stream(device), out, value);
  }

  void copy(DeviceIndex device, const TensorArg &out, const TensorArg &in) override {
    DeviceGuard guard(device);
    launch_copy(detail::current_stream(device), out, in);
  }

  void unary(DeviceIndex device, UnaryOp op, const TensorArg &out, const TensorArg &in) override {
    DeviceGuard guard(device);
    launch_unary(detail::current_stream(device), op, out, in);
  }

  void binary(DeviceIndex device, BinaryOp op, const TensorArg &out, const TensorArg &a,
              const TensorArg &b) override {
    DeviceGuard guard(device);
    launch_binary(detail::current_stream(device), op, out, a, b);
  }

  void binary_scalar(DeviceIndex device, BinaryOp op, const TensorArg &out, const TensorArg &a,
                     ScalarArg s, bool scalar_is_lhs) override {
    DeviceGuard guard(device);
    launch_binary_scalar(detail::current_stream(device), op, out, a, s, scalar_is_lhs);
  }

  void reduce(DeviceIndex device, ReduceOp op, const TensorArg &out, const TensorArg &in,
              std::uint32_t reduced_dims) override {
    DeviceGuard guard(device);
    launch_reduce(device, detail::current_stream(device), op, out, in, reduced_dims);
  }

  void gemm(DeviceIndex device, const GemmArgs &args) override {
    if (args.m == 0 || args.n == 0 || args.batch == 0)
      return;
    DeviceGuard guard(device);
    const cudaStream_t stream = detail::current_stream(device);
    if (args.k == 0) {
      // An empty inner dimension: C is all zeros (C is contiguous).
      const std::size_t bytes =
          static_cast<std::size_t>(args.batch * args.m * args.n) * element_size(args.dtype);
      PL_CUDA_CHECK(cudaMemsetAsync(args.c, 0, bytes, stream));
      return;
    }
    with_cublas(device, stream, [&](cublasHandle_t handle) {
      if (args.dtype == ScalarType::Double)
        run_gemm<double>(handle, args);
      else
        run_gemm<float>(handle, args);
    });
  }

  bool has_pinned_host_memory() const override { return true; }
  void *allocate_pinned_host(std::size_t nbytes) override {
    return pinned_host_allocator().allocate(nbytes);
  }
  void deallocate_pinned_host(void *ptr) noexcept override {
    pinned_host_allocator().deallocate(ptr);
  }

  backend::StreamHandle current_stream(DeviceIndex device) override {
    return detail::current_stream(device);
  }
  void set_current_stream(DeviceIndex device, backend::StreamHandle stream) override {
    detail::set_current_stream(device, static_cast<cudaStream_t>(stream));
  }
  backend::StreamHandle stream_from_pool(DeviceIndex device, bool high_priority) override {
    return detail::stream_from_pool(device, high_priority);
  }
  void synchronize_stream(DeviceIndex device, backend::StreamHandle stream) override {
    DeviceGuard guard(device);
    PL_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  }
  bool stream_idle(DeviceIndex device, backend::StreamHandle stream) override {
    DeviceGuard guard(device);
    const cudaError_t status = cudaStreamQuery(static_cast<cudaStream_t>(stream));
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    PL_CUDA_CHECK(status);
    return true;
  }
  void synchronize_device(DeviceIndex device) override {
    DeviceGuard guard(device);
    PL_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::shared_ptr<backend::StreamEvent> record_event(DeviceIndex device,
                                                     backend::StreamHandle stream) override {
    return std::make_shared<CudaEvent>(device, static_cast<cudaStream_t>(stream));
  }
  void stream_wait_event(DeviceIndex device, backend::StreamHandle stream,
                         std::shared_ptr<backend::StreamEvent> event) override {
    auto *const cuda_event = dynamic_cast<CudaEvent *>(event.get());
    if (cuda_event == nullptr) {
      // Another backend's event: the host waits for it before queuing more.
      event->synchronize();
      return;
    }
    DeviceGuard guard(device);
    PL_CUDA_CHECK(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), cuda_event->native()));
  }
};

} // namespace
} // namespace pl::cuda::detail

namespace pl::backend {

Backend &cuda_backend() {
  // Never destroyed: storages may be freed during static destruction.
  static auto *const instance = new cuda::detail::CudaBackend();
  return *instance;
}

} // namespace pl::backend
