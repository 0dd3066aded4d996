// RUN: %check_placement %s 'placement-*,-placement-create-then-move,-placement-unguarded-cuda' %t -- -- %pl_includes
//
// A training step written against the real runtime headers (<pl/pl.h>),
// not the mocks: the analyzer must recognise the runtime's own API.
#include <pl/pl.h>

#include <vector>

struct RegressorImpl : pl::nn::Module {
  RegressorImpl() : fc(register_module("fc", std::make_shared<pl::nn::LinearImpl>(8, 1))) {}
  pl::Tensor forward(const pl::Tensor &x) { return fc(x).relu(); }
  pl::nn::Linear fc;
};
PL_MODULE(Regressor);

float train(const std::vector<pl::Tensor> &batches) {
  pl::Device device = pl::cuda::is_available() ? pl::Device(pl::kCUDA) : pl::Device(pl::kCPU);
  Regressor model;
  model->to(device);
  pl::Tensor scale = pl::full({1}, 0.5);
  pl::Tensor total = pl::zeros({1}, device);
  for (const pl::Tensor &batch : batches) {
    pl::Tensor x = batch.to(device);
    pl::Tensor y = model(x) * scale.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'scale' is moved to the device in 'device' on every iteration but does not change in the loop [placement-transfer-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: hoist the transfer before this loop
    total += y.sum();
  }
  return total.item<float>();
}

pl::Tensor evaluate(const pl::Tensor &input) {
  pl::Tensor weights = pl::randn({8, 1});
  pl::Tensor x = input.cuda();
  weights.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the result of 'cuda' is discarded; 'weights' is not moved in place [placement-discarded-transfer]
  // CHECK-FIXES: weights = weights.cuda();
  return pl::matmul(x, weights);
  // The discarded transfer left weights on the cpu: this matmul fails.
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'x' is on cuda but 'weights' is on cpu in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:24: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-9]]:24: note: 'weights' was created on cpu here
}

void mixes() {
  pl::Tensor a = pl::ones({2, 2}, pl::Device("sim:0"));
  pl::Tensor b = pl::ones({2, 2});
  pl::Tensor c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'a' is on sim:0 but 'b' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'a' was created on sim:0 here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'b' was created on cpu here
  c += pl::scalar_tensor(1.0);
  c.copy_(pl::zeros({2, 2}));
}
