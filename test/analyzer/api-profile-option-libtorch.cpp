// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- -- %mock_includes
// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- \
// RUN:   -config="{CheckOptions: {ApiProfile: libtorch}}" -- %mock_includes
// RUN: %check_placement -check-suffix=PL %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- \
// RUN:   -config="{CheckOptions: {placement-mixed-device.ApiProfile: pl, placement-discarded-transfer.ApiProfile: pl}}" -- %mock_includes
//
// ApiProfile on libtorch code: `auto` and `libtorch` recognise at::Tensor;
// `pl` does not, and nothing is reported (the PL prefix pins nothing).
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void reportedUnderAutoAndLibtorch() {
  torch::Tensor a = torch::ones({2});
  torch::Tensor g = torch::ones({2}, torch::kCUDA);
  consume(a + g);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'g' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'g' was created on cuda here
  a.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cuda' is discarded; 'a' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: a = a.cuda();
}
