// RUN: %check_placement %s placement-non-leaf-parameter %t -compile-fixed -- -- %mock_includes
//
// A tensor made to require grad and then moved is the move's copy, not a
// leaf: given to an optimizer, its grad() read, or registered as a
// parameter, it never gets a gradient. Module::to moves parameters in
// place; a tensor moved first and marked requires_grad_() after is a leaf;
// a copy whose gradient nobody asks for is no bug.
#include <torch/torch.h>
void consume(const torch::Tensor &t);
void givenToOptimizer(torch::Device device) {
  auto w = torch::randn({4, 3}, torch::requires_grad()).to(device);
  // CHECK-FIXES: auto w = torch::randn({4, 3}, torch::TensorOptions(torch::requires_grad()).device(device));
  auto b = torch::zeros({3}, torch::TensorOptions().requires_grad(true)).to(device);
  // CHECK-FIXES: auto b = torch::zeros({3}, torch::TensorOptions(torch::TensorOptions().requires_grad(true)).device(device));
  torch::optim::SGD optimizer({w, b}, torch::optim::SGDOptions(0.1));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the optimizer is given 'b', which is not a leaf: it is the copy that '.to()' made of a tensor that requires grad, so it gets no gradient and is never updated [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE-4]]:74: note: the leaf that requires grad is left behind here; create the tensor on the device, or move it first and call requires_grad_() after
  // CHECK-MESSAGES: :[[@LINE-3]]:21: warning: the optimizer is given 'w', which is not a leaf: it is the copy that '.to()' made of a tensor that requires grad, so it gets no gradient and is never updated [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE-8]]:57: note: the leaf that requires grad is left behind here; create the tensor on the device, or move it first and call requires_grad_() after
}
void gradRead() {
  auto w = torch::randn({4, 3}, torch::requires_grad());
  w = w.cuda();
  auto loss = w.sum();
  loss.backward();
  consume(w.grad());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'w' is not a leaf: it is the copy that '.cuda()' made of a tensor that requires grad, so its grad() stays undefined [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: the leaf that requires grad is left behind here; create the tensor on the device, or move it first and call requires_grad_() after
}
struct Affine : torch::nn::Module {
  explicit Affine(torch::Device device) {
    scale = register_parameter("scale", torch::ones({3}, torch::requires_grad()).to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::ones({3}, torch::requires_grad()).to(device)' is registered as a parameter but is not a leaf: it is the copy that '.to()' made of a tensor that requires grad, so it gets no gradient [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE-2]]:82: note: the leaf that requires grad is left behind here; create the tensor on the device, or move it first and call requires_grad_() after
    // CHECK-FIXES: scale = register_parameter("scale", torch::ones({3}, torch::TensorOptions(torch::requires_grad()).device(device)));
  }
  torch::Tensor scale;
};

// Correct look-alikes.
void createdOnDevice(torch::Device device) {
  auto w = torch::randn({4, 3}, torch::TensorOptions().device(device).requires_grad(true));
  torch::optim::SGD optimizer({w}, torch::optim::SGDOptions(0.1));
  consume(w.grad());
}
void movedThenMarked(torch::Device device) {
  auto w = torch::randn({4, 3}).to(device).requires_grad_();
  auto v = torch::randn({4, 3}).to(device);
  v.requires_grad_();
  torch::optim::SGD optimizer({w, v}, torch::optim::SGDOptions(0.1));
}
void detachedThenMarked(torch::Device device) {
  auto w = torch::randn({4, 3}, torch::requires_grad()).to(device).detach().requires_grad_();
  torch::optim::SGD optimizer({w}, torch::optim::SGDOptions(0.1));
}
void gradNeverAsked(torch::Device device) {
  auto w = torch::randn({4, 3}, torch::requires_grad()).to(device);
  consume(w * 2);
}
void moduleTo(torch::Device device) {
  torch::nn::Linear model(4, 3);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
}
void requiresGradOff(torch::Device device) {
  auto w = torch::randn({4, 3}, torch::requires_grad(false)).to(device);
  consume(w.grad());
}
