// RUN: %check_placement %s placement-non-leaf-parameter %t -- -- %mock_includes
//
// Tensors that require grad, made by the caller, moved by code it calls: a
// helper that fills a list the caller owns (by reference), a lambda that
// writes through its captures (called at once, by name, through a
// std::function, by a std algorithm), a method that fills a field the
// caller reads back, a helper that moves a tensor it takes by reference.
// The copies come back to the caller, which gives them to an optimizer:
// one finding at the move, inside the callee, with the note at the
// optimizer. Each case is followed by its correct look-alike.
#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <vector>

std::vector<torch::Tensor> hostWeights() {
  return {torch::randn({8, 1}, torch::requires_grad()), torch::zeros({1}, torch::requires_grad())};
}

// A helper that pushes the moved copies into the caller's list.
void moveEach(const std::vector<torch::Tensor> &host, std::vector<torch::Tensor> &params,
              torch::Device device) {
  for (const auto &p : host)
    params.push_back(p.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+7]]:21: note: the optimizer is given the copy 'params' here; it never updates it
}
void helperFillsCallersList(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1}, torch::requires_grad()),
                                     torch::zeros({1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  moveEach(host, params, device);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// Look-alikes: the same helper given tensors that do not require grad, then
// marked on the device (leaves) ...
void moveEachThenMark(const std::vector<torch::Tensor> &host, std::vector<torch::Tensor> &params,
                      torch::Device device) {
  for (const auto &p : host)
    params.push_back(p.to(device).detach().requires_grad_());
}
void helperFillsCallersListWithLeaves(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1}, torch::requires_grad()),
                                     torch::zeros({1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  moveEachThenMark(host, params, device);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// ... weights made on the device, moved to where they already are (the
// copy is the leaf itself) ...
void helperGivenLeavesOnTheDevice() {
  std::vector<torch::Tensor> host = {
      torch::randn({8, 1}, torch::TensorOptions().device(torch::kCUDA).requires_grad(true))};
  std::vector<torch::Tensor> params;
  moveEach(host, params, torch::Device(torch::kCUDA));
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// ... and moved copies that are never given to an optimizer.
void helperCopiesNeverParameters(torch::Device device, const torch::Tensor &x) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1}, torch::requires_grad())};
  std::vector<torch::Tensor> moved;
  moveEach(host, moved, device);
  auto y = x.matmul(moved[0]);
}

// A lambda capturing the lists by reference, called at once.
void lambdaFillsCapturedList(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  [&] {
    for (const auto &p : host)
      params.push_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  }();
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

void lambdaFillsCapturedListWithLeaves(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1})};
  std::vector<torch::Tensor> params;
  [&] {
    for (const auto &p : host)
      params.push_back(p.to(device).requires_grad_());
  }();
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// A std::function kept in a struct, called later.
struct Task {
  std::function<void()> run;
};
void storedTaskFillsCapturedList(torch::Device device) {
  std::vector<torch::Tensor> host = hostWeights();
  std::vector<torch::Tensor> params;
  Task task{[&] {
    for (const auto &p : host)
      params.push_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+3]]:22: note: the optimizer is given the copy 'params' here; it never updates it
  }};
  task.run();
  torch::optim::Adam optimizer(params, torch::optim::AdamOptions(1e-3));
}

// A std algorithm's callback, given each element.
void forEachFillsCapturedList(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({8, 1}, torch::requires_grad()),
                                     torch::zeros({1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  std::for_each(host.begin(), host.end(), [&](const torch::Tensor &p) {
    params.push_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  });
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

void forEachFillsCapturedListFromTheDevice() {
  std::vector<torch::Tensor> host = {
      torch::randn({8, 1}, torch::TensorOptions().device(torch::kCUDA).requires_grad(true))};
  std::vector<torch::Tensor> params;
  std::for_each(host.begin(), host.end(),
                [&](const torch::Tensor &p) { params.push_back(p.to(torch::kCUDA)); });
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// A method that fills a field, read back by the caller.
struct Upload {
  Upload(std::vector<torch::Tensor> host, torch::Device device) : host(host), device(device) {}
  void run() {
    for (const auto &p : host)
      params.push_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+10]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  }
  std::vector<torch::Tensor> host;
  std::vector<torch::Tensor> params;
  torch::Device device;
};
void methodFillsFieldReadBack(torch::Device device) {
  Upload upload(hostWeights(), device);
  upload.run();
  std::vector<torch::Tensor> params = upload.params;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

void methodFillsFieldWithCopiesOfLeavesOnTheDevice() {
  Upload upload({torch::ones({1}, torch::TensorOptions().device(torch::kCUDA).requires_grad(true))},
                torch::Device(torch::kCUDA));
  upload.run();
  std::vector<torch::Tensor> params = upload.params;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// A helper that moves a tensor it takes by reference.
void moveInPlace(torch::Tensor &weight, torch::Device device) {
  weight = weight.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+5]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
}
void helperMovesCallersTensor(torch::Device device) {
  auto weight = torch::randn({4, 1}, torch::requires_grad());
  moveInPlace(weight, device);
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

void helperMovesCallersTensorThenMarked(torch::Device device) {
  auto weight = torch::randn({4, 1});
  moveInPlace(weight, device);
  weight.requires_grad_();
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// insert puts one value into the list, as push_back does.
void insertEach(const std::vector<torch::Tensor> &host, std::vector<torch::Tensor> &params,
                torch::Device device) {
  for (const auto &p : host)
    params.insert(params.end(), p.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+6]]:21: note: the optimizer is given the copy 'params' here; it never updates it
}
void helperInsertsIntoCallersList(torch::Device device) {
  std::vector<torch::Tensor> host = hostWeights();
  std::vector<torch::Tensor> params;
  insertEach(host, params, device);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

void insertsLeavesMadeOnTheDevice(torch::Device device) {
  std::vector<torch::Tensor> params;
  params.insert(params.end(), torch::randn({8, 1}, torch::TensorOptions().device(device).requires_grad(true)));
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// A std algorithm's callback replacing each element by its copy through
// its reference.
void forEachReplacesElementsByCopies(torch::Device device) {
  std::vector<torch::Tensor> params = hostWeights();
  std::for_each(params.begin(), params.end(), [&](torch::Tensor &p) { p = p.to(device); });
  // CHECK-MESSAGES: :[[@LINE-1]]:77: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
  // CHECK-MESSAGES: :[[@LINE+1]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

void forEachReplacesElementsByMarkedCopies(torch::Device device) {
  std::vector<torch::Tensor> params = {torch::randn({8, 1})};
  std::for_each(params.begin(), params.end(),
                [&](torch::Tensor &p) { p = p.to(device).requires_grad_(); });
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// A method that hands out its fields as a list written out: each element
// is judged by its own maker, the moved copies reported, the leaf beside
// them not.
class Factorization {
public:
  Factorization(torch::Device device) {
    users_ = torch::randn({50, 4}, torch::requires_grad()).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+15]]:22: note: the optimizer is given the copy 'model.parameters()' here; it never updates it
    items_ = torch::randn({80, 4}, torch::requires_grad()).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+12]]:22: note: the optimizer is given the copy 'model.parameters()' here; it never updates it
    bias_ = torch::zeros({80}, torch::TensorOptions().device(device).requires_grad(true));
  }
  std::vector<torch::Tensor> parameters() const { return {users_, items_, bias_}; }

private:
  torch::Tensor users_;
  torch::Tensor items_;
  torch::Tensor bias_;
};
void methodHandsOutMovedFields(torch::Device device) {
  Factorization model(device);
  torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(0.01));
}

// Look-alike: the fields are moved first and then marked, leaves all.
class FactorizationOfLeaves {
public:
  FactorizationOfLeaves(torch::Device device) {
    users_ = torch::randn({50, 4}).to(device).requires_grad_();
    items_ = torch::randn({80, 4}).to(device).requires_grad_();
  }
  std::vector<torch::Tensor> parameters() const { return {users_, items_}; }

private:
  torch::Tensor users_;
  torch::Tensor items_;
};
void methodHandsOutLeaves(torch::Device device) {
  FactorizationOfLeaves model(device);
  torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(0.01));
}

// Known false negatives: each element replaced by its copy through a
// reference in a loop (a range-for's, or `v[i]`), here or in a helper. The
// loop's later iterations read the list as the earlier ones left it, the
// join of the weights and their copies, which has no single maker.
void elementsReplacedByCopies(torch::Device device) {
  std::vector<torch::Tensor> params = hostWeights();
  for (auto &p : params)
    p = p.to(device);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}
void replaceEachByItsCopy(std::vector<torch::Tensor> &params, torch::Device device) {
  for (size_t i = 0; i < params.size(); ++i)
    params[i] = params[i].to(device);
}
void helperReplacesElementsByCopies(torch::Device device) {
  std::vector<torch::Tensor> params = {torch::randn({8, 1}, torch::requires_grad())};
  replaceEachByItsCopy(params, device);
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}
