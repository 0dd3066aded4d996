// placement-create-then-move (scored apart).
// BUG. A common idiom to get "float options on the model's device": make
// an empty tensor on the host and move it, only to read .options(). Each
// call allocates on the host and launches a copy for nothing.
#include <torch/torch.h>

torch::Tensor make_mask(const torch::Device &device, int64_t n) {
  auto reference = torch::empty({0}).to(device); // expect: placement-create-then-move
  auto mask = torch::ones({n, n}, reference.options()).tril();
  return mask.masked_fill(mask == 0, -1e9);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto mask = make_mask(device, 16);
  return mask.size(0) == 16 ? 0 : 1;
}
