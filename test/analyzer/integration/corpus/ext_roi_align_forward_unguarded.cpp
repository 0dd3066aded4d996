// missing-device-guard: a CUDA extension's host wrapper takes the current
// device's stream with no device guard, so with the features on cuda:1 the
// kernel runs on cuda:0 and reads another GPU's memory (illegal memory
// access). Modelled on open-mmlab/mmdetection#1603 ("Issue with NMS on GPU
// 1") and torchvision's roi_align_forward_kernel, whose fix declares
// `at::cuda::CUDAGuard device_guard(input.device());` first.
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
  cudaStream_t stream = at::cuda::getCurrentCUDAStream(); // expect: placement-missing-device-guard
  at::Tensor input_ = input.contiguous();
  at::Tensor rois_ = rois.contiguous();
  roi_align_forward_launcher(input_.data_ptr<float>(), rois_.data_ptr<float>(),
                             output.data_ptr<float>(), num_rois, channels, input.size(2),
                             input.size(3), pooled_height, pooled_width, spatial_scale,
                             sampling_ratio, stream);
  return output;
}
