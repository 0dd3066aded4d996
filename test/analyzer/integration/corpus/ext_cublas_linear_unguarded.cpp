// missing-device-guard: a fused linear layer calls cuBLAS through the
// current device's handle, set to the current stream, with no guard: with
// the weights on cuda:1 the GEMM runs on cuda:0's handle. The shape is
// apex's fused_dense (cublasGemmEx on at::cuda::getCurrentCUDABlasHandle());
// the missing guard is the one pytorch/pytorch#54077 asks the extension
// tutorial to show, and flashinfer-ai/flashinfer#613 adds
// (`const at::cuda::OptionalCUDAGuard device_guard(device_of(...))`).
#include "cuda_extension_api.h"

at::Tensor linear_forward_cuda(const at::Tensor &input, const at::Tensor &weight) {
  TORCH_CHECK(input.dim() == 2 && weight.dim() == 2, "linear_forward_cuda: 2-d inputs");
  const int batch = input.size(0);
  const int in_features = input.size(1);
  const int out_features = weight.size(0);
  at::Tensor output = at::empty({batch, out_features}, input.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle(); // expect: placement-missing-device-guard
  cublasSetStream(handle, at::cuda::getCurrentCUDAStream());
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, out_features, batch, in_features, &alpha,
              weight.data_ptr<float>(), in_features, input.data_ptr<float>(), in_features, &beta,
              output.data_ptr<float>(), out_features);
  return output;
}
