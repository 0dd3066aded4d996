// missing-device-guard: the NMS wrapper of open-mmlab/mmdetection#451 and
// #1603 before their fixes: boxes on a second GPU, the mask computed on
// the current one ("illegal memory access ... when I try to run NMS with a
// Tensor on any device except CPU or 0").
#include "cuda_extension_api.h"

void nms_launcher(const float *boxes, int64_t boxes_num, float nms_overlap_thresh,
                  uint64_t *mask, cudaStream_t stream);

at::Tensor nms_cuda(const at::Tensor &boxes, float nms_overlap_thresh) {
  TORCH_CHECK(boxes.is_cuda(), "boxes must be a CUDA tensor");
  const int64_t boxes_num = boxes.size(0);
  const int64_t col_blocks = (boxes_num + 63) / 64;
  at::Tensor mask = at::empty({boxes_num * col_blocks}, boxes.options().dtype(at::kLong));
  nms_launcher(boxes.data_ptr<float>(), boxes_num, nms_overlap_thresh,
               reinterpret_cast<uint64_t *>(mask.data_ptr<int64_t>()),
               at::cuda::getCurrentCUDAStream()); // expect: placement-missing-device-guard
  return mask;
}
