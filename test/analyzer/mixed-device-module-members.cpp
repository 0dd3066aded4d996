// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Module::to moves what a module registered (parameters, buffers,
// submodules), not its plain members. Inside the module's methods, a
// registered member and forward's input are on "the device of" the module;
// a plain member stays where the constructor (or an init method) made it.
#include <torch/torch.h>

// A submodule assigned but never registered stays on the cpu.
struct TwoLayerNetImpl : torch::nn::Module {
  TwoLayerNetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(4, 8));
    fc2 = torch::nn::Linear(8, 2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    return fc2(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x' may be on the device of 'TwoLayerNetImpl' but 'fc2' is on cpu in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'x' was assigned a tensor on the device of 'TwoLayerNetImpl' here
    // CHECK-MESSAGES: :[[@LINE-7]]:11: note: 'fc2' was created on cpu here
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(TwoLayerNet);

// The same, registered: both layers move with the module.
struct RegisteredNetImpl : torch::nn::Module {
  RegisteredNetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(4, 8))),
        fc2(register_module("fc2", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

// A plain tensor member is not a buffer: it stays on the cpu.
struct MaskedNetImpl : torch::nn::Module {
  explicit MaskedNetImpl(int64_t n) : fc(register_module("fc", torch::nn::Linear(n, n))) {
    mask = torch::ones({n});
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return fc(x) * mask;
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'fc(x)' may be on the device of 'MaskedNetImpl' but 'mask' is on cpu in call to 'operator*' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'fc(x)' was assigned a tensor on the device of 'MaskedNetImpl' here
    // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'mask' was created on cpu here
  }
  torch::nn::Linear fc;
  torch::Tensor mask;
};

// Registered as a buffer, it moves with the module.
struct BufferNetImpl : torch::nn::Module {
  explicit BufferNetImpl(int64_t n) : fc(register_module("fc", torch::nn::Linear(n, n))) {
    mask = register_buffer("mask", torch::ones({n}));
  }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x) * mask; }
  torch::nn::Linear fc;
  torch::Tensor mask;
};

// Set in an init method, moved with a discarded to(): still on the cpu.
struct InitNetImpl : torch::nn::Module {
  InitNetImpl() { init(); }
  void init() {
    scale = torch::ones({4});
    scale.to(torch::kCUDA);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return x * scale;
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' may be on the device of 'InitNetImpl' but 'scale' is on cpu in call to 'operator*' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-6]]:13: note: 'scale' was created on cpu here
  }
  torch::Tensor scale;
};

// Made on a device the constructor was given: nothing is known about it.
struct DeviceArgumentNetImpl : torch::nn::Module {
  explicit DeviceArgumentNetImpl(torch::Device device) {
    offset = torch::zeros({4}, torch::device(device));
  }
  torch::Tensor forward(const torch::Tensor &x) { return x + offset; }
  torch::Tensor offset;
};

// A module used from outside: moved, and given an input on the cpu.
void caller() {
  auto net = std::make_shared<RegisteredNetImpl>();
  net->to(torch::kCUDA);
  torch::Tensor input = torch::randn({2, 4});
  torch::Tensor out = net->forward(input);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'input' is on cpu but 'net' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'input' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'net' was moved to cuda here
  torch::Tensor fine = net->forward(input.cuda());
}

// A module constructed inside forward is on the cpu: the first call of one
// throws where the module's device is a GPU; the second, reached only when
// the first did not throw, agrees with it, and is not reported again.
struct BlockImpl : torch::nn::Module {
  BlockImpl()
      : fc1(register_module("fc1", torch::nn::Linear(8, 8))),
        fc2(register_module("fc2", torch::nn::Linear(8, 8))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = fc1(x);
    x = torch::nn::Linear(8, 8)(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'x' may be on the device of 'BlockImpl' but 'torch::nn::Linear(8, 8)' is on cpu in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'x' was assigned a tensor on the device of 'BlockImpl' here
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'torch::nn::Linear(8, 8)' was created on cpu here
    x = torch::relu(x);
    x = fc2(x);
    return torch::nn::Linear(8, 8)(x);
  }
  torch::nn::Linear fc1, fc2;
};
