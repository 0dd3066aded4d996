// missing-device-guard look-alike: the same deformable attention op after
// open-mmlab/mmcv#1402: a guard from the value tensor's device, declared
// before the loop that launches on the current stream.
#include "cuda_extension_api.h"

void ms_deformable_im2col_cuda(cudaStream_t stream, const float *value,
                               const int64_t *spatial_shapes, const int64_t *level_start_index,
                               const float *sampling_loc, const float *attn_weight, int batch,
                               int spatial_size, int num_heads, int channels, int num_levels,
                               int num_query, int num_point, float *columns);

at::Tensor ms_deform_attn_cuda_forward(const at::Tensor &value, const at::Tensor &spatial_shapes,
                                       const at::Tensor &level_start_index,
                                       const at::Tensor &sampling_loc,
                                       const at::Tensor &attn_weight, int im2col_step) {
  TORCH_CHECK(value.is_contiguous(), "value tensor has to be contiguous");
  at::DeviceGuard guard(value.device());
  const int batch = value.size(0);
  const int spatial_size = value.size(1);
  const int num_heads = value.size(2);
  const int channels = value.size(3);
  const int num_levels = spatial_shapes.size(0);
  const int num_query = sampling_loc.size(1);
  const int num_point = sampling_loc.size(4);
  const int step = std::min(batch, im2col_step);
  at::Tensor output = at::zeros({batch, num_query, num_heads, channels}, value.options());
  auto output_n = output.view({batch / step, step, num_query, num_heads, channels});
  for (int n = 0; n < batch / step; ++n) {
    at::Tensor columns = output_n.select(0, n);
    ms_deformable_im2col_cuda(at::cuda::getCurrentCUDAStream(), value.data_ptr<float>(),
                              spatial_shapes.data_ptr<int64_t>(),
                              level_start_index.data_ptr<int64_t>(),
                              sampling_loc.data_ptr<float>(), attn_weight.data_ptr<float>(), step,
                              spatial_size, num_heads, channels, num_levels, num_query, num_point,
                              columns.data_ptr<float>());
  }
  return output.view({batch, num_query, num_heads * channels});
}
