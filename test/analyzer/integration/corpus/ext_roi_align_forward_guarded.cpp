// missing-device-guard look-alike: the fixed roi_align wrapper. The early
// return for an empty output launches nothing; the guard is declared before
// the stream is taken (torchvision's roi_align_kernel.cu, the fix of
// open-mmlab/mmdetection#1603).
#include "cuda_extension_api.h"

void roi_align_forward_launcher(const float *input, const float *rois, float *output,
                                int64_t num_rois, int64_t channels, int64_t height,
                                int64_t width, int64_t pooled_height, int64_t pooled_width,
                                double spatial_scale, int64_t sampling_ratio, cudaStream_t stream);

at::Tensor roi_align_forward_cuda(const at::Tensor &input, const at::Tensor &rois,
                                  double spatial_scale, int64_t pooled_height,
                                  int64_t pooled_width, int64_t sampling_ratio) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(rois.is_cuda(), "rois must be a CUDA tensor");
  const int64_t num_rois = rois.size(0);
  const int64_t channels = input.size(1);
  at::Tensor output =
      at::zeros({num_rois, channels, pooled_height, pooled_width}, input.options());
  if (output.numel() == 0)
    return output;
  at::cuda::CUDAGuard device_guard(input.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  at::Tensor input_ = input.contiguous();
  at::Tensor rois_ = rois.contiguous();
  roi_align_forward_launcher(input_.data_ptr<float>(), rois_.data_ptr<float>(),
                             output.data_ptr<float>(), num_rois, channels, input.size(2),
                             input.size(3), pooled_height, pooled_width, spatial_scale,
                             sampling_ratio, stream);
  return output;
}
