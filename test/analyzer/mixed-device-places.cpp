// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// Values keep their device through the places they live in (fields of a
// struct, elements of a tuple, pair or map) and through every callable of
// the unit (helpers, member functions, lambdas, templates, constructors).
// Each scenario with the bug is followed by its correct look-alike.
#include <torch/torch.h>
#include <map>

void consume(const torch::Tensor &t);

struct Batch {
  torch::Tensor images;
  torch::Tensor labels;
};

void structFieldForgotten(torch::Device device, const torch::Tensor &w) {
  Batch batch{torch::randn({8, 4}), torch::zeros({8})};
  batch.images = batch.images.to(device);
  consume(batch.images.matmul(w.to(device)) + batch.labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'batch.images.matmul(w.to(device))' may be on the device in 'device' but 'batch.labels' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'batch.images.matmul(w.to(device))' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:37: note: 'batch.labels' was created on cpu here
}

void structFieldsAllMoved(torch::Device device, const torch::Tensor &w) {
  Batch batch{torch::randn({8, 4}), torch::zeros({8})};
  batch.images = batch.images.to(device);
  batch.labels = batch.labels.to(device);
  consume(batch.images.matmul(w.to(device)) + batch.labels);
}

std::tuple<torch::Tensor, torch::Tensor> initialState(torch::Device device) {
  return {torch::zeros({1, 32}).to(device), torch::zeros({1, 32})};
}

void tupleElementLeftOnTheHost(torch::Device device, const torch::Tensor &x) {
  auto [h, c] = initialState(device);
  consume(x.to(device) * h + c);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'x.to(device) * h' may be on the device in 'device' but 'c' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'x.to(device) * h' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-8]]:45: note: 'c' was created on cpu here
}

std::tuple<torch::Tensor, torch::Tensor> initialStateOn(torch::Device device) {
  return {torch::zeros({1, 32}).to(device), torch::zeros({1, 32}).to(device)};
}

void tupleElementsOnTheDevice(torch::Device device, const torch::Tensor &x) {
  auto [h, c] = initialStateOn(device);
  consume(x.to(device) * h + c);
}

void mapOfTensors(const torch::Tensor &x) {
  std::map<std::string, torch::Tensor> stats;
  stats["mean"] = torch::zeros({4});
  consume(x.cuda() - stats.at("mean"));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'x.cuda()' is on cuda but 'stats.at("mean")' is on cpu in call to 'operator-' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'x.cuda()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: 'stats.at("mean")' was created on cpu here
}

void mapOfTensorsMoved(const torch::Tensor &x) {
  std::map<std::string, torch::Tensor> stats;
  stats["mean"] = torch::zeros({4}).cuda();
  consume(x.cuda() - stats.at("mean"));
}

// A batch read as a map from a helper: each entry named by its key keeps
// its own device; the entries not named keep the map's.
std::map<std::string, torch::Tensor> readFeatures(int index) {
  torch::Tensor dense = torch::randn({8, 4}), ids = torch::zeros({8});
  return {{"dense", dense}, {"ids", ids}};
}

void mapEntryForgotten(torch::Device device, const torch::Tensor &w, int index) {
  auto batch = readFeatures(index);
  batch["dense"] = batch["dense"].to(device);
  consume(batch.at("dense").matmul(w.to(device)) + batch.at("ids"));
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'batch.at("dense").matmul(w.to(device))' may be on the device in 'device' but 'batch.at("ids")' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'batch.at("dense").matmul(w.to(device))' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:16: note: 'batch.at("ids")' was assigned a tensor on cpu here
}

void mapEntriesAllMovedByKey(torch::Device device, const torch::Tensor &w, int index) {
  auto batch = readFeatures(index);
  batch["dense"] = batch["dense"].to(device);
  batch["ids"] = batch["ids"].to(device);
  consume(batch.at("dense").matmul(w.to(device)) + batch.at("ids"));
}

void mapEntriesAllMovedByLoop(torch::Device device, const torch::Tensor &w, int index) {
  auto batch = readFeatures(index);
  for (auto &entry : batch)
    entry.second = entry.second.to(device);
  consume(batch.at("dense").matmul(w.to(device)) + batch.at("ids"));
}

struct Normalizer {
  torch::Tensor mean;
  torch::Tensor scale;
  void to(torch::Device device) { mean = mean.to(device); }
  torch::Tensor apply(const torch::Tensor &x) const { return (x - mean) * scale; }
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: '(x - mean)' may be on the device in 'device' but 'scale' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:65: note: '(x - mean)' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE+5]]:38: note: 'scale' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE+6]]:16: note: with the values this call gives it
};

void memberFunctionMovesOneField(torch::Device device, const torch::Tensor &x) {
  Normalizer norm{torch::zeros({4}), torch::ones({4})};
  norm.to(device);
  consume(norm.apply(x.to(device)));
}

struct NormalizerMovingAll {
  torch::Tensor mean;
  torch::Tensor scale;
  void to(torch::Device device) {
    mean = mean.to(device);
    scale = scale.to(device);
  }
  torch::Tensor apply(const torch::Tensor &x) const { return (x - mean) * scale; }
};

void memberFunctionMovesEveryField(torch::Device device, const torch::Tensor &x) {
  NormalizerMovingAll norm{torch::zeros({4}), torch::ones({4})};
  norm.to(device);
  consume(norm.apply(x.to(device)));
}

template <typename T> T makeMask(const T &like) { return torch::ones({4}); }
template <typename T> T makeMaskLike(const T &like) { return torch::ones({4}, like.options()); }

void templateHelperOnTheHost(const torch::Tensor &x) {
  torch::Tensor y = x.cuda();
  consume(y * makeMask(y));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'y' is on cuda but 'makeMask(y)' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'y' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'makeMask(y)' was assigned a tensor on cpu here
}

void templateHelperOnTheInputsDevice(const torch::Tensor &x) {
  torch::Tensor y = x.cuda();
  consume(y * makeMaskLike(y));
}

void lambdaKeepsItsResultOnTheHost(torch::Device device, const torch::Tensor &x) {
  auto noise = [](const torch::Tensor &like) { return torch::randn({4}); };
  torch::Tensor y = x.to(device);
  consume(y + noise(y));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'y' may be on the device in 'device' but 'noise(y)' is on cpu in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'y' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'noise(y)' was assigned a tensor on cpu here
}

void lambdaMovesItsResult(torch::Device device, const torch::Tensor &x) {
  auto noise = [&](const torch::Tensor &like) { return torch::randn({4}).to(device); };
  torch::Tensor y = x.to(device);
  consume(y + noise(y));
}

struct Stage {
  explicit Stage(torch::Device device) : weight(torch::randn({4, 4}).to(device)) {}
  torch::Tensor weight;
};

void constructedObjectOnAnotherDevice(const torch::Tensor &x) {
  Stage first(torch::Device(torch::kCUDA, 0));
  Stage second(torch::Device(torch::kCUDA, 1));
  torch::Tensor hidden = x.to(torch::Device(torch::kCUDA, 0)).matmul(first.weight);
  consume(hidden.matmul(second.weight));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'hidden' is on cuda:0 but 'second.weight' is on cuda:1 in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:63: note: 'hidden' was assigned a tensor on cuda:0 here
  // CHECK-MESSAGES: :[[@LINE-11]]:70: note: 'second.weight' was moved to cuda:1 here
}

void constructedObjectsHopped(const torch::Tensor &x) {
  Stage first(torch::Device(torch::kCUDA, 0));
  Stage second(torch::Device(torch::kCUDA, 1));
  torch::Tensor hidden = x.to(torch::Device(torch::kCUDA, 0)).matmul(first.weight);
  consume(hidden.to(torch::Device(torch::kCUDA, 1)).matmul(second.weight));
}

struct Config {
  torch::Device device{torch::kCUDA, 1};
};

void deviceThroughAConfigPointer(const std::shared_ptr<Config> &config, const torch::Tensor &x) {
  torch::Tensor y = x.to(config->device);
  consume(y + x.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'y' may be on the device in 'device' but 'x.cuda()' is on cuda in call to 'operator+' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'y' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'x.cuda()' was moved to cuda here
}
