// missing-device-guard look-alike: an NMS wrapper that switches the
// current device to the boxes' device for good with cudaSetDevice before
// taking the stream (the fix open-mmlab/mmdetection#451 asks of its
// nms_Malloc: "does not invoke cudaSetDevice ... a crash if you run nms on
// your second GPU card").
#include "cuda_extension_api.h"

void nms_launcher(const float *boxes, int64_t boxes_num, float nms_overlap_thresh,
                  uint64_t *mask, cudaStream_t stream);

at::Tensor nms_cuda(const at::Tensor &boxes, float nms_overlap_thresh) {
  TORCH_CHECK(boxes.is_cuda(), "boxes must be a CUDA tensor");
  cudaSetDevice(boxes.get_device());
  const int64_t boxes_num = boxes.size(0);
  const int64_t col_blocks = (boxes_num + 63) / 64;
  at::Tensor mask = at::empty({boxes_num * col_blocks}, boxes.options().dtype(at::kLong));
  nms_launcher(boxes.data_ptr<float>(), boxes_num, nms_overlap_thresh,
               reinterpret_cast<uint64_t *>(mask.data_ptr<int64_t>()),
               at::cuda::getCurrentCUDAStream());
  return mask;
}
