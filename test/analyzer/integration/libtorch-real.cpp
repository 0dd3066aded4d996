// REQUIRES: libtorch
// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -- -- -std=c++17 %torch_includes
//
// The real libtorch headers (Debian's libtorch-dev 1.13, which needs
// -std=c++17 with this libstdc++): the libtorch profile on the genuine
// declarations rather than the mocks. Parsing takes ~20 s.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(const torch::Tensor &x) { return torch::relu(fc(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

torch::Tensor step(const torch::Tensor &input, torch::Tensor &out) {
  Net net;
  net->to(torch::kCUDA);
  torch::Tensor x = torch::ones({8, 4});
  out = net(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'x' is on cpu but 'net' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'net' was moved to cuda here
  torch::Tensor w = torch::randn({2, 2}, torch::device(torch::Device("cuda:1")));
  torch::Tensor z = torch::ones({2, 2}).to(torch::Device("cuda:0"));
  out = w.matmul(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'w' is on cuda:1 but 'z' is on cuda:0 in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'w' was created on cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:41: note: 'z' was moved to cuda:0 here
  torch::Tensor loss = net(x.cuda()).sum();
  loss.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the result of 'cpu' is discarded; 'loss' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: loss = loss.cpu();
  torch::Tensor bias = torch::ones({2});
  for (int i = 0; i < 10; ++i) {
    torch::Tensor b = bias.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'bias' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    loss += (net(input.to(torch::kCUDA)).sum() + b.sum()) * torch::scalar_tensor(0.1);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'input' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: hoist the transfer before this loop
  }
  return loss;
}
