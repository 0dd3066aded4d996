// missing-device-guard: the launch lives in a helper that takes the tensors;
// the forward wrapper that calls it sets a guard, the backward wrapper does
// not, so the helper runs unguarded on that path. Modelled on
// mit-han-lab/bevfusion#63 and #105 (OptionalCUDAGuard added to
// mmdet3d/ops/bev_pool/src/bev_pool.cpp), with the wrappers split the way
// torchvision's ops are.
#include "cuda_extension_api.h"

void bev_pool_kernel_launcher(int b, int d, int h, int w, int n, int c, int n_intervals,
                              const float *x, const int *geom_feats, const int *interval_starts,
                              const int *interval_lengths, float *out, cudaStream_t stream);

void launch_bev_pool(const at::Tensor &x, const at::Tensor &geom_feats,
                     const at::Tensor &interval_lengths, const at::Tensor &interval_starts,
                     at::Tensor &out, int b, int d, int h, int w) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream(); // expect: placement-missing-device-guard
  bev_pool_kernel_launcher(b, d, h, w, x.size(0), x.size(1), interval_lengths.size(0),
                           x.data_ptr<float>(), geom_feats.data_ptr<int>(),
                           interval_starts.data_ptr<int>(), interval_lengths.data_ptr<int>(),
                           out.data_ptr<float>(), stream);
}

at::Tensor bev_pool_forward(const at::Tensor &x, const at::Tensor &geom_feats,
                            const at::Tensor &interval_lengths, const at::Tensor &interval_starts,
                            int b, int d, int h, int w) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  at::Tensor out = at::zeros({b, d, h, w, x.size(1)}, x.options());
  launch_bev_pool(x, geom_feats, interval_lengths, interval_starts, out, b, d, h, w);
  return out;
}

at::Tensor bev_pool_rerun_for_grad_check(const at::Tensor &x, const at::Tensor &geom_feats,
                                         const at::Tensor &interval_lengths,
                                         const at::Tensor &interval_starts, int b, int d, int h,
                                         int w) {
  at::Tensor out = at::zeros({b, d, h, w, x.size(1)}, x.options());
  launch_bev_pool(x, geom_feats, interval_lengths, interval_starts, out, b, d, h, w);
  return out;
}
