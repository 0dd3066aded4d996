// RUN: %check_placement %s placement-non-leaf-parameter %t -compile-fixed -- -- %mock_includes
//
// A tensor whose value comes from different moves on different paths (the
// same move written in both branches of an `if`, a weight made one way on
// each branch of a switch): each path's move is a bug when every value
// stored into the tensor is a non-leaf copy. Where one path stores a leaf,
// nothing is reported (the limit on the rule page).
#include <torch/torch.h>
#include <cstdlib>
#include <vector>

void initialisedInBothBranches(torch::Device device) {
  torch::Tensor weight;
  if (std::getenv("FINE_TUNE") != nullptr) {
    weight = (torch::randn({4, 1}) * 0.1).requires_grad_().to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+7]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
  } else {
    weight = torch::zeros({4, 1}, torch::requires_grad()).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+3]]:21: note: the optimizer is given the copy 'weight' here; it never updates it
    // CHECK-FIXES: weight = torch::zeros({4, 1}, torch::TensorOptions(torch::requires_grad()).device(device));
  }
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// Look-alikes: made on the device in both branches (leaves) ...
void createdOnDeviceInBothBranches(torch::Device device) {
  torch::Tensor weight;
  if (std::getenv("FINE_TUNE") != nullptr)
    weight = torch::randn({4, 1}, torch::TensorOptions(torch::requires_grad()).device(device));
  else
    weight = torch::zeros({4, 1}, torch::TensorOptions(torch::requires_grad()).device(device));
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// ... moved in both branches, then replaced by a leaf on every path ...
void movedThenReplacedByLeaf(torch::Device device) {
  torch::Tensor weight;
  if (std::getenv("FINE_TUNE") != nullptr)
    weight = torch::randn({4, 1}, torch::requires_grad()).to(device);
  else
    weight = torch::zeros({4, 1}, torch::requires_grad()).to(device);
  weight = torch::randn({4, 1}, torch::TensorOptions(torch::requires_grad()).device(device));
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// ... and moved in both branches without requiring grad, then marked (a
// leaf made on the device).
void movedThenMarkedInBothBranches(torch::Device device) {
  torch::Tensor weight;
  if (std::getenv("FINE_TUNE") != nullptr)
    weight = torch::randn({4, 1}).to(device);
  else
    weight = torch::zeros({4, 1}).to(device);
  weight.requires_grad_();
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}

// A list that each branch fills with copies of the same weights: every
// value put into it is a non-leaf copy.
void listFilledInBothBranches(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({4, 1}, torch::requires_grad()),
                                     torch::zeros({1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  if (std::getenv("FINE_TUNE") != nullptr) {
    for (const auto &p : host)
      params.push_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+7]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  } else {
    for (const auto &p : host)
      params.emplace_back(p.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '.to()' copies a tensor that requires grad, and the copy is used as a parameter: it is not a leaf, so it never gets a gradient; create the tensor on the device, or move it first and call requires_grad_() after [placement-non-leaf-parameter]
    // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer is given the copy 'params' here; it never updates it
  }
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// Look-alikes: one branch puts leaves into the list (the known false
// negative below, for lists) ...
void listFilledWithLeavesOnOneBranch(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({4, 1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  if (std::getenv("FINE_TUNE") != nullptr) {
    for (const auto &p : host)
      params.push_back(p.to(device));
  } else {
    for (const auto &p : host)
      params.push_back(p.to(device).detach().requires_grad_());
  }
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// ... and copies put in both branches, then replaced in place by leaves.
void listFilledInBothBranchesThenReplaced(torch::Device device) {
  std::vector<torch::Tensor> host = {torch::randn({4, 1}, torch::requires_grad())};
  std::vector<torch::Tensor> params;
  if (std::getenv("FINE_TUNE") != nullptr) {
    for (const auto &p : host)
      params.push_back(p.to(device));
  } else {
    for (const auto &p : host)
      params.push_back(p.to(device));
  }
  for (auto &p : params)
    p = p.detach().requires_grad_();
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.1));
}

// Known false negative: a move on one path, a leaf on the other.
void movedOnOnePath(torch::Device device, bool resume) {
  torch::Tensor weight;
  if (resume)
    weight = torch::randn({4, 1}, torch::requires_grad()).to(device);
  else
    weight = torch::zeros({4, 1}, torch::TensorOptions(torch::requires_grad()).device(device));
  torch::optim::SGD optimizer({weight}, torch::optim::SGDOptions(0.1));
}
