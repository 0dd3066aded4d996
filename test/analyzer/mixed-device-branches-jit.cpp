// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// A model or input moved on one branch only may be elsewhere at the join; a
// scripted module takes its inputs as a vector of IValues.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void modelMovedOnOneBranch(bool useGpu, torch::nn::Linear model) {
  torch::nn::Linear net(4, 2);
  if (useGpu)
    net->to(torch::kCUDA);
  torch::Tensor x = torch::randn({2, 4});
  consume(net(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'net' may be on cuda but 'x' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'net' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'x' was created on cpu here
}

void inputMovedByATernary(bool useGpu) {
  torch::Tensor w = torch::randn({4, 4}).cuda();
  torch::Tensor x = torch::randn({2, 4});
  torch::Tensor in = useGpu ? x.cuda() : x;
  consume(in.matmul(w));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'in' may be on cpu but 'w' is on cuda in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'in' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-6]]:42: note: 'w' was moved to cuda here
}

void scriptedModuleGivenHostInputs(const std::string &path) {
  torch::jit::Module module = torch::jit::load(path, torch::kCUDA);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3, 224, 224}));
  consume(module.forward(inputs).toTensor());
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'inputs' is on cpu but 'module' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'inputs' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-6]]:31: note: 'module' was created on cuda here
}

void scriptedModuleGivenDeviceInputs(const std::string &path) {
  torch::jit::Module module = torch::jit::load(path);
  module.to(torch::kCUDA);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3, 224, 224}).to(torch::kCUDA));
  consume(module.forward(inputs).toTensor());
}
