// missing-device-guard look-alike: the connected-components op with the
// guard of facebookresearch/sam2#705 at the top of the function, before
// the branch that makes the input contiguous.
#include "cuda_extension_api.h"

void connected_components_labeling(const uint8_t *input, int32_t *labels, int32_t *counts,
                                   int64_t batch, int64_t height, int64_t width,
                                   cudaStream_t stream);

std::vector<at::Tensor> get_connected_components(at::Tensor inputs) {
  TORCH_CHECK(inputs.is_cuda(), "inputs must be a CUDA tensor");
  TORCH_CHECK(inputs.dim() == 4 && inputs.size(1) == 1, "inputs must be [N, 1, H, W]");
  const at::cuda::CUDAGuard device_guard(inputs.device());
  if (!inputs.is_contiguous())
    inputs = inputs.contiguous();
  const int64_t N = inputs.size(0), H = inputs.size(2), W = inputs.size(3);
  auto label_options = at::TensorOptions().dtype(at::kInt).device(inputs.device());
  at::Tensor labels = at::zeros({N, 1, H, W}, label_options);
  at::Tensor counts = at::zeros({N, 1, H, W}, label_options);
  connected_components_labeling(inputs.data_ptr<uint8_t>(), labels.data_ptr<int32_t>(),
                                counts.data_ptr<int32_t>(), N, H, W,
                                at::cuda::getCurrentCUDAStream());
  return {labels, counts};
}
