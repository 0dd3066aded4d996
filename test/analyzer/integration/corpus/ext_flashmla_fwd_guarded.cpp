// missing-device-guard look-alike: the attention forward with the guard
// flash-attention's mha_fwd declares (and deepseek-ai/FlashMLA#158
// suggests), from q's device index, braced, before the launch parameters.
#include "cuda_extension_api.h"

struct FmhaFwdParams {
  const void *q_ptr;
  const void *k_ptr;
  const void *v_ptr;
  void *o_ptr;
  int64_t batch, seqlen_q, seqlen_k, heads, head_dim;
  float softmax_scale;
};

void run_fmha_fwd(const FmhaFwdParams &params, cudaStream_t stream);

at::Tensor fmha_fwd(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v,
                    float softmax_scale) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "q, k, v must be CUDA tensors");
  TORCH_CHECK(q.dtype() == at::kHalf, "FlashMLA supports fp16 only");
  at::cuda::CUDAGuard device_guard{(char)q.get_device()};
  at::Tensor out = at::empty_like(q);
  FmhaFwdParams params{q.data_ptr(), k.data_ptr(), v.data_ptr(), out.data_ptr(),
                       q.size(0),    q.size(1),    k.size(1),    q.size(2),
                       q.size(3),    softmax_scale};
  run_fmha_fwd(params, at::cuda::getCurrentCUDAStream());
  return out;
}
