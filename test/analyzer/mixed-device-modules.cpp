// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// A module applied to an input on another device than its parameters.
// Module::to moves the parameters in place; a fresh module's parameters are
// on the cpu.
#include <pl/pl.h>

void consume(const pl::Tensor &t);

struct NetImpl : pl::nn::Module {
  NetImpl() : fc(register_module("fc", std::make_shared<pl::nn::LinearImpl>(4, 2))) {}
  pl::Tensor forward(const pl::Tensor &x) { return fc(x).relu(); }
  pl::nn::Linear fc;
};
PL_MODULE(Net);

struct Plain : pl::nn::Module {
  pl::Tensor forward(const pl::Tensor &x);
};

void holderOnCudaInputOnCpu() {
  pl::nn::Linear lin(4, 2);
  lin->to(pl::kCUDA);
  pl::Tensor x = pl::ones({8, 4});
  consume(lin(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cpu but 'lin' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'lin' was moved to cuda here
  consume(lin->forward(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'x' is on cpu but 'lin' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-9]]:8: note: 'lin' was moved to cuda here
}

void customModuleOnCudaInputOnCpu() {
  Net net;
  net->to(pl::Device("cuda:1"));
  pl::Tensor x = pl::ones({8, 4}, pl::Device("cuda:0"));
  consume(net(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cuda:0 but 'net' is on cuda:1 in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'x' was created on cuda:0 here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'net' was moved to cuda:1 here
}

void plainModuleObject() {
  Plain model;
  model.to(pl::kCUDA);
  pl::Tensor x = pl::ones({8, 4});
  consume(model.forward(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'x' is on cpu but 'model' is on cuda in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'x' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'model' was moved to cuda here
}

// Forgetting to move the model: its parameters stay on the cpu.
void freshModuleInputOnCuda() {
  pl::nn::Linear lin(4, 2);
  pl::Tensor x = pl::ones({8, 4}, pl::kCUDA);
  consume(lin(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'x' is on cuda but 'lin' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'x' was created on cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'lin' was created on cpu here
}

void moduleAndInputOnTheSameDevice() {
  pl::Device dev = pl::cuda::is_available() ? pl::kCUDA : pl::kCPU;
  Net net;
  net->to(dev);
  pl::nn::Linear lin(4, 2);
  lin->to(pl::kCUDA);
  pl::Tensor x = pl::ones({8, 4});
  consume(net(x.to(dev)));
  consume(lin(x.cuda()));
  consume(lin->forward(pl::ones({8, 4}, pl::kCUDA)));
  pl::nn::Linear host(4, 2);
  consume(host(x));
}

// Moved to cuda and back: the parameters are on the cpu again.
void moduleMovedBack() {
  pl::nn::Linear lin(4, 2);
  lin->to(pl::kCUDA);
  lin->to(pl::kCPU);
  pl::Tensor x = pl::ones({8, 4});
  consume(lin(x));
}

// The input's device is unknown: nothing to report.
void unknownInput(Net &net, const pl::Tensor &input) {
  net->to(pl::kCUDA);
  consume(net(input));
}
