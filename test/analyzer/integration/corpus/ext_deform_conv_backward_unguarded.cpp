// missing-device-guard: a deformable convolution whose forward sets the
// device from its input but whose backward does not: on cuda:1 the
// gradients come out as zeros. Modelled on open-mmlab/mmdetection#1326
// ("[DeformConv] Fix zero outputs when not running on cuda:0"), which adds
// the guard to each entry point.
#include "cuda_extension_api.h"

void deformable_im2col(cudaStream_t stream, const float *input, const float *offset,
                       int channels, int height, int width, int kernel_h, int kernel_w,
                       float *columns);
void deformable_col2im(cudaStream_t stream, const float *columns, const float *offset,
                       int channels, int height, int width, int kernel_h, int kernel_w,
                       float *grad_input);

at::Tensor deform_conv_forward_cuda(at::Tensor input, at::Tensor weight, at::Tensor offset) {
  at::DeviceGuard guard(input.device());
  const int kernel_h = weight.size(2), kernel_w = weight.size(3);
  at::Tensor columns = at::zeros({input.size(1) * kernel_h * kernel_w,
                                  input.size(2) * input.size(3)},
                                 input.options());
  deformable_im2col(at::cuda::getCurrentCUDAStream(), input.data_ptr<float>(),
                    offset.data_ptr<float>(), input.size(1), input.size(2), input.size(3),
                    kernel_h, kernel_w, columns.data_ptr<float>());
  return weight.flatten(1).mm(columns);
}

at::Tensor deform_conv_backward_input_cuda(at::Tensor input, at::Tensor offset,
                                           at::Tensor grad_output, at::Tensor weight) {
  const int kernel_h = weight.size(2), kernel_w = weight.size(3);
  at::Tensor columns = weight.flatten(1).t().mm(grad_output.flatten(1));
  at::Tensor grad_input = at::zeros_like(input);
  deformable_col2im(at::cuda::getCurrentCUDAStream(), columns.data_ptr<float>(), // expect: placement-missing-device-guard
                    offset.data_ptr<float>(), input.size(1), input.size(2), input.size(3),
                    kernel_h, kernel_w, grad_input.data_ptr<float>());
  return grad_input;
}
