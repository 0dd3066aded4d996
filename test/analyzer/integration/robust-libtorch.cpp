// REQUIRES: libtorch
// RUN: %check_placement --crash-only %s 'placement-*' %t -- -header-filter=.* -- \
// RUN:   -std=c++17 -I %torch_api_dir
//
// Every check with -header-filter=.* over a translation unit that includes
// libtorch's <torch/torch.h> (its C++ API headers included with -I, so they
// are analysed as user code): no crash, no assertion. Parsing takes ~20 s.
#include <torch/torch.h>

int main() {
  torch::Tensor t = torch::ones({2, 2});
  return static_cast<int>(t.sum().item<float>());
}
