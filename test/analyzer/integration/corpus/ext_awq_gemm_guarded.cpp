// missing-device-guard look-alike: the quantized GEMM after
// casper-hansen/AutoAWQ_kernels#10: an optional guard from the input
// features' device at the top of the wrapper.
#include "cuda_extension_api.h"

void awq_gemm_launcher(const at::Half *in_feats, const int *kernel, const at::Half *scaling_factors,
                       const int *zeros, at::Half *out_feats, int num_in_feats,
                       int num_in_channels, int num_out_channels, int split_k_iters,
                       cudaStream_t stream);

at::Tensor gemm_forward_cuda(at::Tensor _in_feats, at::Tensor _kernel, at::Tensor _scaling_factors,
                             at::Tensor _zeros, int split_k_iters) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(_in_feats));
  TORCH_CHECK(_in_feats.is_cuda(), "in_feats must be a CUDA tensor");
  int num_in_feats = _in_feats.size(0);
  int num_in_channels = _in_feats.size(1);
  auto options = at::TensorOptions().dtype(_in_feats.dtype()).device(_in_feats.device());
  at::Tensor _out_feats = at::empty({num_in_feats, _kernel.size(1) * 8}, options);
  int num_out_channels = _out_feats.size(-1);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  awq_gemm_launcher(_in_feats.data_ptr<at::Half>(), _kernel.data_ptr<int>(),
                    _scaling_factors.data_ptr<at::Half>(), _zeros.data_ptr<int>(),
                    _out_feats.data_ptr<at::Half>(), num_in_feats, num_in_channels,
                    num_out_channels, split_k_iters, stream);
  return _out_feats;
}
