// placement-create-then-move (scored apart).
// CORRECT look-alike of options_from_moved_reference: the options are
// built with the device, and the mask is made where it is used.
#include <torch/torch.h>

torch::Tensor make_mask(const torch::Device &device, int64_t n) {
  auto options = torch::TensorOptions().dtype(torch::kFloat).device(device);
  auto mask = torch::ones({n, n}, options).tril();
  return mask.masked_fill(mask == 0, -1e9);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto mask = make_mask(device, 16);
  return mask.size(0) == 16 ? 0 : 1;
}
