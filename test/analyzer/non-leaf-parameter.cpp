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
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+6]]:21: note: the optimizer is given the copy 'w' here; it never updates it
  // CHECK-FIXES: auto w = torch::randn({4, 3}, torch::TensorOptions(torch::requires_grad()).device(device));
  auto b = torch::zeros({3}, torch::TensorOptions().requires_grad(true)).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:74: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer is given the copy 'b' here; it never updates it
  // CHECK-FIXES: auto b = torch::zeros({3}, torch::TensorOptions(torch::TensorOptions().requires_grad(true)).device(device));
  torch::optim::SGD optimizer({w, b}, torch::optim::SGDOptions(0.1));
}
void gradRead() {
  auto w = torch::randn({4, 3}, torch::requires_grad());
  w = w.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '.cuda()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+3]]:13: note: the copy's gradient is read here; 'w.grad()' stays undefined
  auto loss = w.sum();
  loss.backward();
  consume(w.grad());
}
struct Affine : torch::nn::Module {
  explicit Affine(torch::Device device) {
    scale = register_parameter("scale", torch::ones({3}, torch::requires_grad()).to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:82: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE-2]]:13: note: the copy is registered as a parameter here
    // CHECK-FIXES: scale = register_parameter("scale", torch::ones({3}, torch::TensorOptions(torch::requires_grad()).device(device)));
  }
  torch::Tensor scale;
};

// Across functions: the copy made in a helper, or stored by a constructor,
// and used as a parameter by its caller or another method. One finding a
// move, at the move, however many callers use its copy.
torch::Tensor initialWeight(torch::Device device, int64_t rows) {
  return (torch::randn({rows, 1}) * 0.01).requires_grad_().to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+5]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
}
void fitThroughHelper(torch::Device device, const torch::Tensor &inputs) {
  torch::Tensor weight = initialWeight(device, 8);
  torch::Tensor other = initialWeight(device, 8);
  torch::optim::SGD optimizer({weight, other}, torch::optim::SGDOptions(0.1));
  consume(inputs.matmul(weight));
}
struct LinearProbe {
  explicit LinearProbe(torch::Device device) {
    weight = torch::zeros({16, 2}, torch::requires_grad()).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+5]]:24: note: the optimizer is given the copy 'weight' here; it never updates it
    // CHECK-FIXES: weight = torch::zeros({16, 2}, torch::TensorOptions(torch::requires_grad()).device(device));
  }
  torch::Tensor weight;
  void train(const torch::Tensor &features) {
    torch::optim::Adam optimizer({weight}, torch::optim::AdamOptions(1e-3));
    consume(features.matmul(weight));
  }
};

// Correct look-alikes.
torch::Tensor initialWeightOnDevice(torch::Device device, int64_t rows) {
  return (torch::randn({rows, 1}, device) * 0.01).requires_grad_();
}
void fitThroughHelperOnDevice(torch::Device device) {
  torch::Tensor weight = initialWeightOnDevice(device, 8);
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}
torch::Tensor frozenCopy(torch::Device device) {
  return torch::randn({8, 1}, torch::requires_grad()).to(device);
}
void helperCopyNeverAParameter(torch::Device device, const torch::Tensor &inputs) {
  consume(inputs.matmul(frozenCopy(device)));
}
struct LinearProbeOnDevice {
  explicit LinearProbeOnDevice(torch::Device device) {
    weight = torch::zeros({16, 2}).to(device).requires_grad_();
  }
  torch::Tensor weight;
  void train() { torch::optim::Adam optimizer({weight}, torch::optim::AdamOptions(1e-3)); }
};
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
