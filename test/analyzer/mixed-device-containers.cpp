// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// A std::vector of tensors is tracked as the devices its elements may be on:
// push_back/emplace_back add to it, v[i], at(), front(), back() and a
// range-for read an element, and cat/stack need every element on one device
// (a 0-dim cpu element is no exception).
#include <torch/torch.h>

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
