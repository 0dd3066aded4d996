// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// pl's module container and handles (mixed-device-module-containers.cpp has
// libtorch's): a `pl::nn::Sequential` holds the modules pushed into it or
// given to its constructor, shared, so `to()` on either moves both; `ptr()`
// and `get()` are the module they hold. Each bug beside its correct
// look-alike.
#include <pl/pl.h>

#include <memory>

struct NetImpl : pl::nn::Module {
  NetImpl() : fc(register_module("fc", pl::nn::Linear(16, 4))) {}
  pl::Tensor forward(const pl::Tensor &x) { return fc(x); }
  pl::nn::Linear fc;
};
PL_MODULE(Net);

void consume(const pl::Tensor &t);

void namedPushOfMovedModel(pl::Device device, const pl::Tensor &batch) {
  Net model;
  model->to(device);
  pl::nn::Sequential seq;
  seq->push_back("net", model);
  consume(seq->forward(batch.to(device)));
}

void namedPushOfMovedModelHostInput(pl::Device device) {
  Net model;
  model->to(device);
  pl::nn::Sequential seq;
  seq->push_back("net", model);
  consume(seq->forward(pl::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'seq' may be on the device in 'device' but 'pl::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'seq' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'pl::randn({2, 16})' was created on cpu here
}

// The constructor's modules are shared: moving the container moves them.
void containerMadeWithModelMoved(pl::Device device, const pl::Tensor &batch) {
  Net model;
  pl::nn::Sequential seq(model, pl::nn::ReLU());
  seq->to(device);
  consume(model(batch.to(device)));
}

void containerMadeWithModelMovedHostInput(pl::Device device) {
  Net model;
  pl::nn::Sequential seq(model, pl::nn::ReLU());
  seq->to(device);
  consume(model(pl::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'model' may be on the device in 'device' but 'pl::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'model' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'pl::randn({2, 16})' was created on cpu here
}

// An empty Sequential given a new layer is on the host until moved.
void pushedNewLayerMoved(pl::Device device, const pl::Tensor &batch) {
  pl::nn::Sequential seq;
  seq->push_back(pl::nn::Linear(16, 4));
  seq->to(device);
  consume(seq->forward(batch.to(device)));
}

void pushedNewLayerNotMoved(pl::Device device, const pl::Tensor &batch) {
  pl::nn::Sequential seq;
  seq->push_back(pl::nn::Linear(16, 4));
  consume(seq->forward(batch.to(device)));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'batch.to(device)' may be on the device in 'device' but 'seq' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: note: 'batch.to(device)' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'seq' was created on cpu here
}

// Handles taken before the move move with the module.
void handlesOfMovedModel(pl::Device device, const pl::Tensor &batch) {
  Net model;
  std::shared_ptr<NetImpl> shared = model.ptr();
  NetImpl *raw = model.get();
  model->to(device);
  consume(shared->forward(batch.to(device)));
  consume(raw->forward(batch.to(device)));
}

void handlesOfMovedModelHostInput(pl::Device device) {
  Net model;
  std::shared_ptr<NetImpl> shared = model.ptr();
  model->to(device);
  consume(shared->forward(pl::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'shared' may be on the device in 'device' but 'pl::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'shared' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'pl::randn({2, 16})' was created on cpu here
}
