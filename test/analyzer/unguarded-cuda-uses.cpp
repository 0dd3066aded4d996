// RUN: %check_placement %s placement-unguarded-cuda %t -- -- %mock_includes
//
// CUDA is asked for where a device is used to place something: a move, a
// factory, Module::to, a field that keeps it, a function of the unit given
// it. Writing a device down asks for nothing: printing it, comparing it,
// keeping it in a local for a later use that a check guards. A flag set
// once from an availability check guards what it guards; so does every
// construction of an object whose members name CUDA devices.
#include <torch/torch.h>
#include <string>

void consume(const torch::Tensor &t);
void log(const torch::Device &device);
void train(torch::nn::Linear model, torch::Device device) { model->to(device); }

void deviceWrittenButNotUsed() {
  torch::Device gpu(torch::kCUDA);
  log(gpu);
  bool onGpu = gpu == torch::Device(torch::kCUDA, 0);
  (void)onGpu;
}

void deviceKeptForACheckedUse(torch::nn::Linear model) {
  torch::Device gpu(torch::kCUDA);
  if (torch::cuda::is_available())
    model->to(gpu);
}

void deviceKeptForAnUncheckedUse(torch::nn::Linear model) {
  torch::Device gpu(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  model->to(gpu);
}

void deviceHandedToTheUnit(torch::nn::Linear model) {
  train(model, torch::Device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

void flagFromACondition(torch::nn::Linear model, bool noCuda, const torch::Tensor &x) {
  const bool useCuda = !noCuda && torch::cuda::is_available();
  torch::Device device(useCuda ? torch::kCUDA : torch::kCPU);
  if (useCuda) {
    model->to(torch::kCUDA);
    consume(x.cuda());
  }
  model->to(device);
}

void flagTheWrongWay(torch::nn::Linear model, bool noCuda) {
  const bool useCpu = noCuda || !torch::cuda::is_available();
  if (useCpu)
    model->to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
}

struct TwoStage : torch::nn::Module {
  TwoStage() {
    first->to(firstDevice);
    second->to(secondDevice);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return second(first(x.to(firstDevice)).to(secondDevice));
  }
  const torch::Device firstDevice{torch::kCUDA, 0};
  const torch::Device secondDevice{torch::kCUDA, 1};
  torch::nn::Linear first{4, 4};
  torch::nn::Linear second{4, 4};
};

struct TwoStageUnguarded : torch::nn::Module {
  TwoStageUnguarded() { first->to(firstDevice); }
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+13]]:21: note: 'TwoStageUnguarded' is called here with no availability check
  const torch::Device firstDevice{torch::kCUDA, 0};
  torch::nn::Linear first{4, 4};
};

void everyConstructionGuarded(const torch::Tensor &x) {
  if (torch::cuda::device_count() >= 2) {
    TwoStage model;
    consume(model.forward(x));
  }
}

void constructedWithoutACheck() {
  TwoStageUnguarded model;
}

// A device read off a tensor or a module the object placed (a method
// returning `model_->parameters().front().device()`) asks for nothing: the
// placement that put it there asked. The request written in the
// constructor, and one written in another method, are each reported.
struct BackboneImpl : torch::nn::Module {
  BackboneImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Backbone);
class Predictor {
public:
  Predictor() { model_->to(torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+17]]:13: note: 'Predictor' is called here with no availability check
  void warmup() { consume(model_->forward(torch::zeros({1, 4}, torch::device(torch::kCUDA)))); }
  // CHECK-MESSAGES: :[[@LINE-1]]:78: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+15]]:13: note: 'warmup' is called here with no availability check
  torch::Tensor predict(const torch::Tensor &image) {
    return model_->forward(image.to(device()));
  }
  torch::Device device() const { return model_->parameters().front().device(); }
  torch::Tensor predictOnItsOptions(const torch::Tensor &image) {
    return model_->forward(image.to(options().device()));
  }
  torch::TensorOptions options() const { return model_->parameters().front().options(); }

private:
  Backbone model_;
};
void servePredictions(const torch::Tensor &image) {
  Predictor predictor;
  predictor.warmup();
  consume(predictor.predict(image));
  consume(predictor.predictOnItsOptions(image));
}

// A device string kept in a std::string is the literal every write of it in
// the file gives it: a config struct's default "cuda", stored in a Device
// by a member initializer (no request there), asks where it is used. A
// method's later uses of that field are no second request: every
// constructor asked first. Set back to "cpu" on a machine without a GPU, or
// read from the user (by reference), the string names no one device.
struct TrainConfig {
  std::string device = "cuda";
  int epochs = 5;
};
struct CheckedConfig {
  std::string device = "cuda";
};
struct UserConfig {
  std::string device = "cuda";
};
void readOption(const char *name, std::string &value);
class Trainer {
public:
  explicit Trainer(const TrainConfig &cfg) : device_(cfg.device) {
    model_->to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
    // CHECK-MESSAGES: :[[@LINE+26]]:11: note: 'Trainer' is called here with no availability check
  }
  torch::Tensor step(const torch::Tensor &x) { return model_->forward(x.to(device_)); }

private:
  torch::Device device_;
  torch::nn::Linear model_{4, 4};
};
class CheckedTrainer {
public:
  explicit CheckedTrainer(const CheckedConfig &cfg) : device_(cfg.device) { model_->to(device_); }

private:
  torch::Device device_;
  torch::nn::Linear model_{4, 4};
};
class UserTrainer {
public:
  explicit UserTrainer(const UserConfig &cfg) : device_(cfg.device) { model_->to(device_); }

private:
  torch::Device device_;
  torch::nn::Linear model_{4, 4};
};
void trainWithDefaultConfig(const torch::Tensor &x) {
  TrainConfig cfg;
  Trainer trainer(cfg);
  consume(trainer.step(x));
}
void trainFallingBackToTheCpu() {
  CheckedConfig cfg;
  if (!torch::cuda::is_available())
    cfg.device = "cpu";
  CheckedTrainer trainer(cfg);
}
void trainOnTheUsersDevice() {
  UserConfig cfg;
  readOption("--device", cfg.device);
  UserTrainer trainer(cfg);
}

// CUDA the class writes itself is asked for at each use: in a method too,
// after the constructor's.
struct SecondStage {
  SecondStage() { head->to(device_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+8]]:15: note: 'SecondStage' is called here with no availability check
  torch::Tensor forward(const torch::Tensor &x) { return head(x.to(device_)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:65: warning: CUDA is requested with no cuda::is_available() check on this path; the program fails on a machine without a GPU [placement-unguarded-cuda]
  // CHECK-MESSAGES: :[[@LINE+6]]:17: note: 'forward' is called here with no availability check
  const torch::Device device_{torch::kCUDA};
  torch::nn::Linear head{4, 4};
};
void runSecondStage(const torch::Tensor &x) {
  SecondStage stage;
  consume(stage.forward(x));
}
