// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// `.cuda()` and kCUDA without an index mean the current device, cuda:0
// unless the program changes it: they mismatch cuda:1.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void currentDeviceMeetsTheSecondGpu() {
  torch::Tensor a = torch::randn({4}).cuda();
  torch::Tensor b = torch::randn({4}).to(torch::Device(torch::kCUDA, 1));
  consume(a + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cuda but 'b' is on cuda:1 in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: 'a' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: 'b' was moved to cuda:1 here
}

void currentDeviceIsTheFirstGpu() {
  torch::Tensor a = torch::randn({4}).cuda();
  torch::Tensor b = torch::randn({4}).to(torch::Device("cuda:0"));
  consume(a + b);
}

// Two replicas' gradients summed without moving one of them.
void replicasOnTwoGpus(torch::nn::Linear first, torch::nn::Linear second) {
  first->to(torch::Device("cuda:0"));
  second->to(torch::Device("cuda:1"));
  std::vector<torch::Tensor> a = first->parameters();
  std::vector<torch::Tensor> b = second->parameters();
  consume(a[0] + b[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'a[0]' is on cuda:0 but 'b[0]' is on cuda:1 in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'a[0]' was moved to cuda:0 here
  // CHECK-MESSAGES: :[[@LINE-6]]:11: note: 'b[0]' was moved to cuda:1 here
  consume(a[0] + b[0].to(torch::Device("cuda:0")));
}
