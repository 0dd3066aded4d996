// REQUIRES: libtorch
// RUN: %check_placement %s 'placement-mixed-device,placement-unguarded-cuda' %t -- -- -std=c++17 %torch_includes
//
// Modules reached through the library's containers and handles, and calls
// through a virtual `forward`, on the real libtorch 1.13 headers. A
// container (`Sequential`, `ModuleList`, `ModuleDict`) shares the modules
// put into it: it is where they are, and `to()` on either moves both. A
// handle (`ptr()`, `get()`, `*`, `->`, a copy of the holder or of the
// `shared_ptr`, `at<NetImpl>(0)`, `at<NetImpl>("name")`) is the module it
// holds. A call through a virtual method calls the overrides the unit
// defines: the checks around it guard the requests inside them. Each bug
// beside its correct look-alike.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(16, 4))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void consume(const torch::Tensor &t);

// A Sequential made empty and filled with a module already on the device
// is on that device.
void sequentialFilledWithMovedModel(torch::Device device, const torch::Tensor &batch) {
  Net model;
  model->to(device);
  torch::nn::Sequential seq;
  seq->push_back(model);
  consume(seq->forward(batch.to(device)));
}

void sequentialFilledWithMovedModelHostInput(torch::Device device) {
  Net model;
  model->to(device);
  torch::nn::Sequential seq;
  seq->push_back(model);
  consume(seq->forward(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'seq' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'seq' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'torch::randn({2, 16})' was created on cpu here
}

// `to()` on the container moves the modules put into it, and on a module
// the containers holding it.
void containerMovedMovesItsModule(torch::Device device, const torch::Tensor &batch) {
  Net model;
  torch::nn::Sequential seq;
  seq->push_back(model);
  seq->to(device);
  consume(model(batch.to(device)));
}

void containerMovedModuleGivenHostInput(torch::Device device) {
  Net model;
  torch::nn::Sequential seq;
  seq->push_back(model);
  seq->to(device);
  consume(model(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'model' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'model' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'torch::randn({2, 16})' was created on cpu here
}

void moduleMovedMovesItsContainer(torch::Device device, const torch::Tensor &batch) {
  Net model;
  torch::nn::Sequential seq;
  seq->push_back(model);
  model->to(device);
  consume(seq->forward(batch.to(device)));
}

// A Sequential made from new library modules is on the host until moved;
// its activations add no device.
void sequentialOfNewLayersOnHost(torch::Device device) {
  torch::nn::Sequential head(torch::nn::Linear(16, 8), torch::nn::ReLU());
  consume(head->forward(torch::randn({2, 16}).to(device)));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::randn({2, 16}).to(device)' may be on the device in 'device' but 'head' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:47: note: 'torch::randn({2, 16}).to(device)' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-4]]:30: note: 'head' was created on cpu here
}

void sequentialOfNewLayersMoved(torch::Device device) {
  torch::nn::Sequential head(torch::nn::Linear(16, 8), torch::nn::ReLU());
  head->to(device);
  consume(head->forward(torch::randn({2, 16}).to(device)));
}

// A ModuleList's and a ModuleDict's element is the module put there.
void moduleListElementOnDevice(torch::Device device, const torch::Tensor &batch) {
  Net model;
  model->to(device);
  torch::nn::ModuleList list;
  list->push_back(model.ptr());
  consume(list->at<NetImpl>(0).forward(batch.to(device)));
}

void moduleListElementHostInput(torch::Device device) {
  Net model;
  model->to(device);
  torch::nn::ModuleList list;
  list->push_back(model.ptr());
  consume(list->at<NetImpl>(0).forward(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'list->at<NetImpl>(0)' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'list->at<NetImpl>(0)' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:40: note: 'torch::randn({2, 16})' was created on cpu here
}

void moduleListIndexedHostInput(torch::Device device) {
  Net model;
  model->to(device);
  torch::nn::ModuleList list;
  list->push_back(model.ptr());
  consume(list[0]->as<NetImpl>()->forward(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'list[0]->as<NetImpl>()' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'list[0]->as<NetImpl>()' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:43: note: 'torch::randn({2, 16})' was created on cpu here
}

void moduleListIndexedOnDevice(torch::Device device, const torch::Tensor &batch) {
  Net model;
  model->to(device);
  torch::nn::ModuleList list;
  list->push_back(model.ptr());
  consume(list[0]->as<NetImpl>()->forward(batch.to(device)));
}

void moduleDictEntryOnDevice(torch::Device device, const torch::Tensor &batch) {
  Net model;
  model->to(device);
  torch::nn::ModuleDict dict;
  dict->update(std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
      {"model", model.ptr()}});
  consume(dict->at<NetImpl>("model").forward(batch.to(device)));
}

void moduleDictEntryHostInput(torch::Device device) {
  Net model;
  model->to(device);
  torch::nn::ModuleDict dict;
  dict->update(std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
      {"model", model.ptr()}});
  consume(dict->at<NetImpl>("model").forward(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'dict->at<NetImpl>("model")' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'dict->at<NetImpl>("model")' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:46: note: 'torch::randn({2, 16})' was created on cpu here
}

// The holder's shared_ptr, its raw pointer and a copy of the holder are the
// module; one taken before the module moved moves with it.
void handlesOfMovedModel(torch::Device device, const torch::Tensor &batch) {
  Net model;
  std::shared_ptr<NetImpl> shared = model.ptr();
  model->to(device);
  NetImpl *raw = model.get();
  Net copy = model;
  consume(shared->forward(batch.to(device)));
  consume(raw->forward(batch.to(device)));
  consume(copy(batch.to(device)));
  consume((*model).forward(batch.to(device)));
}

void handlesOfMovedModelHostInput(torch::Device device) {
  Net model;
  std::shared_ptr<NetImpl> shared = model.ptr();
  model->to(device);
  std::shared_ptr<NetImpl> again = shared;
  consume(again->forward(torch::randn({2, 16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'again' may be on the device in 'device' but 'torch::randn({2, 16})' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'again' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: 'torch::randn({2, 16})' was created on cpu here
}

// A call through a virtual forward calls the unit's overrides: a request
// inside one is guarded when every call of it is.
struct Scorer : torch::nn::Module {
  virtual torch::Tensor forward(const torch::Tensor &x) = 0;
};

struct GpuScorer : Scorer {
  torch::Tensor forward(const torch::Tensor &x) override { return x.to(torch::kCUDA).sum(); }
};

void virtualForwardGuarded(const torch::Tensor &batch) {
  auto scorer = std::make_shared<GpuScorer>();
  if (!torch::cuda::is_available())
    return;
  consume(static_cast<Scorer &>(*scorer).forward(batch));
  std::shared_ptr<Scorer> base = scorer;
  consume(base->forward(batch));
}

struct OtherScorer : torch::nn::Module {
  virtual torch::Tensor forward(const torch::Tensor &x) = 0;
};

struct UnguardedGpuScorer : OtherScorer {
  torch::Tensor forward(const torch::Tensor &x) override { return x.to(torch::kCUDA).sum(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+8]]:17: note: 'forward' is called here with no availability check
};

void virtualForwardOneCallUnguarded(const torch::Tensor &batch) {
  auto scorer = std::make_shared<UnguardedGpuScorer>();
  if (torch::cuda::is_available())
    consume(static_cast<OtherScorer &>(*scorer).forward(batch));
  std::shared_ptr<OtherScorer> base = scorer;
  consume(base->forward(batch));
}
