// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// A std::vector of tensors is tracked as the devices its elements may be on:
// push_back/emplace_back add to it, v[i], at(), front(), back() and a
// range-for read an element, and cat/stack need every element on one device
// (a 0-dim cpu element is no exception).
#include <torch/torch.h>

#include <array>
#include <optional>

void consume(const torch::Tensor &t);
torch::Tensor loadChunk(int i);

void seededWithAHostTensor(int chunks) {
  std::vector<torch::Tensor> parts{torch::zeros({1, 4})};
  for (int i = 0; i < chunks; ++i)
    parts.push_back(torch::randn({1, 4}).cuda());
  consume(torch::cat(parts));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'parts' holds tensors on cpu and on cuda in call to 'cat' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:36: note: an element of 'parts' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:42: note: an element of 'parts' was moved to cuda here
}

void allOnTheDevice(int chunks) {
  std::vector<torch::Tensor> parts;
  for (int i = 0; i < chunks; ++i)
    parts.emplace_back(torch::randn({1, 4}).cuda());
  consume(torch::cat(parts));
  consume(torch::stack(parts));
}

void elementsOfUnknownDevice(int chunks) {
  std::vector<torch::Tensor> parts;
  for (int i = 0; i < chunks; ++i)
    parts.push_back(loadChunk(i));
  consume(torch::cat(parts));
}

// Hand-written optimizer state built before the model moved.
void stateBuiltBeforeTheModelMoved(double decay) {
  torch::nn::Linear model(4, 2);
  std::vector<torch::Tensor> shadow;
  for (const torch::Tensor &p : model->parameters())
    shadow.push_back(p.detach().clone());
  model->to(torch::kCUDA);
  std::vector<torch::Tensor> params = model->parameters();
  for (size_t i = 0; i < params.size(); ++i)
    shadow[i].mul_(decay).add_(params[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'shadow[i].mul_(decay)' is on cpu but 'params[i]' is on cuda in call to 'add_' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-6]]:33: note: 'shadow[i].mul_(decay)' was assigned a tensor on cpu here
    // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'params[i]' was moved to cuda here
}

void stateBuiltAfterTheModelMoved(double decay) {
  torch::nn::Linear model(4, 2);
  model->to(torch::kCUDA);
  std::vector<torch::Tensor> shadow;
  for (const torch::Tensor &p : model->parameters())
    shadow.push_back(p.detach().clone());
  std::vector<torch::Tensor> params = model->parameters();
  for (size_t i = 0; i < params.size(); ++i)
    shadow[i].mul_(decay).add_(params[i]);
}

void rangeForOverAList(const torch::Tensor &weights) {
  std::vector<torch::Tensor> batches{torch::randn({2, 4}), torch::randn({2, 4})};
  torch::Tensor w = torch::randn({4, 4}).cuda();
  for (const torch::Tensor &b : batches)
    consume(b.matmul(w));
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'b' is on cpu but 'w' is on cuda in call to 'matmul' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'b' was assigned a tensor on cpu here
    // CHECK-MESSAGES: :[[@LINE-5]]:42: note: 'w' was moved to cuda here
}

// Holders filled from a braced list or a single value are what they hold:
// std::array's elements (its braces elided around a C array), an optional's
// value.
void heldInAnArray(const torch::Tensor &input) {
  torch::Tensor weights = torch::ones({4});
  std::array<torch::Tensor, 2> held{input.cuda(), input.cuda() * 2};
  consume(held[0] * weights);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'held[0]' is on cuda but 'weights' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:43: note: 'held[0]' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: 'weights' was created on cpu here
}

void heldInAnArrayOnOneDevice(const torch::Tensor &input) {
  torch::Tensor weights = torch::ones({4}).cuda();
  std::array<torch::Tensor, 2> held{input.cuda(), input.cuda() * 2};
  consume(held[0] * weights);
}

void heldInAnOptional(const torch::Tensor &input) {
  torch::Tensor weights = torch::ones({4});
  std::optional<torch::Tensor> held{weights};
  consume(input.cuda() * held.value());
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'input.cuda()' is on cuda but 'held.value()' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: 'input.cuda()' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: 'held.value()' was created on cpu here
}

void heldInAnOptionalOnTheDevice(const torch::Tensor &input) {
  torch::Tensor weights = torch::ones({4}).cuda();
  std::optional<torch::Tensor> held{weights};
  consume(input.cuda() * held.value());
  consume(input.cuda() * *held);
}

// A row of a host tensor of two dims or more has a dim of its own: it is no
// 0-dim scalar that may join a device operation (a rollout's done flags
// indexed by step). An element of a one-dim tensor may be: not reported.
void rowOfHostMatrix() {
  auto dones = torch::zeros({128, 8});
  auto next = torch::randn({128, 8}, torch::device(torch::kCUDA));
  for (int64_t t = 0; t < 128; ++t)
    consume(next[t] * (1 - dones[t]));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'next[t]' is on cuda but '(1 - dones[t])' is on cpu in call to 'operator*' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'next[t]' was assigned a tensor on cuda here
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: '(1 - dones[t])' was assigned a tensor on cpu here
}
void elementOfHostVector() {
  auto scale = torch::ones({8});
  auto next = torch::randn({8}, torch::device(torch::kCUDA));
  consume(next * scale[0]);
}

// A list read from a file holds host tensors; updated in place with a
// device tensor, it fails. Its look-alike moves the list's tensors first.
void loadedListUpdated(const std::string &path) {
  std::vector<torch::Tensor> shadow;
  torch::load(shadow, path);
  auto w = torch::randn({4}, torch::device(torch::kCUDA));
  shadow[0].add_(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'shadow[0]' is on cpu but 'w' is on cuda in call to 'add_' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'shadow[0]' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'w' was created on cuda here
}
void loadedListMovedThenUpdated(const std::string &path) {
  std::vector<torch::Tensor> shadow;
  torch::load(shadow, path);
  for (auto &t : shadow)
    t = t.to(torch::kCUDA);
  auto w = torch::randn({4}, torch::device(torch::kCUDA));
  shadow[0].add_(w);
}
