// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -compile-fixed -- -- %mock_includes
//
// The libtorch profile (picked automatically): at::Tensor and its alias
// torch::Tensor, c10::Device from strings and DeviceType constants,
// TensorOptions built by torch::device(), module holders (lin->to(dev),
// model(x)). The mock headers keep libtorch's namespaces and signatures.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", std::make_shared<torch::nn::LinearImpl>(4, 2))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x).relu(); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void mixedDevices() {
  torch::Tensor a = torch::ones({2, 2});
  at::Tensor b = torch::ones({2, 2}, torch::device(torch::kCUDA).dtype(torch::kFloat));
  consume(a + b);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'a' is on cpu but 'b' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cuda here
  torch::Tensor c = torch::randn({2, 2}).to(torch::Device("cuda:1"));
  torch::Tensor d = torch::randn({2, 2}, torch::Device(torch::kCUDA, 0));
  consume(torch::matmul(c, d));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'c' is on cuda:1 but 'd' is on cuda:0 in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:42: note: 'c' was moved to cuda:1 here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'd' was created on cuda:0 here
  consume(torch::cat({a, a.cuda()}, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'a' is on cpu but 'a.cuda()' is on cuda in call to 'cat' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-14]]:21: note: 'a' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'a.cuda()' was moved to cuda here
}

void modules() {
  torch::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear lin(4, 2);
  lin->to(dev);
  torch::Tensor x = torch::ones({8, 4});
  consume(lin(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'lin' may be on the device in 'dev' but 'x' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:8: note: 'lin' was moved to the device in 'dev' here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'x' was created on cpu here
  consume(lin(x.to(dev)));
  Net net;
  net->to(torch::kCUDA);
  consume(net->forward(torch::ones({8, 4}, torch::kCUDA)));
  consume(net(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cpu but 'net' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-11]]:21: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'net' was moved to cuda here
}

void zeroDimAndScalars() {
  torch::Tensor g = torch::ones({2}, torch::kCUDA);
  torch::Tensor loss = torch::ones({8}).sum();
  consume(g * loss);
  consume(g + 1.5);
  consume(g * torch::scalar_tensor(2.0));
  g.copy_(torch::ones({2}));
}

void discardedTransfer(torch::Tensor t) {
  t.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'to' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: t = t.to(torch::kCUDA);
  t.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'cpu' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: t = t.cpu();
  (void)t.cuda();
  torch::nn::Linear lin(4, 2);
  lin->to(torch::kCUDA);
}

// gtest's way of testing for an exception (here as its macros spell it).
#define ASSERT_THROW(statement, exception)                                                  \
  do {                                                                                       \
    try {                                                                                    \
      statement;                                                                             \
    } catch (const exception &) {                                                           \
    }                                                                                        \
  } while (0)
#define ASSERT_NO_THROW(statement) ASSERT_THROW(statement, int)

// A call there for what it throws, and options that name no device (they
// place nothing): nothing was meant to move.
void discardedForWhatItThrows(torch::Tensor t) {
  ASSERT_THROW(t.to(torch::TensorOptions().requires_grad(true)), std::exception);
  ASSERT_NO_THROW(t.to(torch::kCUDA));
  t.to(torch::TensorOptions());
  t.to(torch::TensorOptions().requires_grad(false));
  t.to(torch::TensorOptions().device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the result of 'to' is discarded; 't' is not moved in place [placement-discarded-transfer]
  // No fix: 't' is a by-value parameter read no more (the caller expected the move).
  // CHECK-FIXES: t.to(torch::TensorOptions().device(torch::kCUDA));
}

void transferInLoop(int steps) {
  torch::Tensor weights = torch::ones({4});
  for (int i = 0; i < steps; ++i) {
    torch::Tensor w = weights.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'weights' is moved to cuda on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist the transfer before this loop
    torch::Tensor loss = (w * 2).sum();
    consume(loss);
    float value = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'loss' is copied from cuda to the host on every iteration of the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: in this loop
    consume(w * value);
  }
}
