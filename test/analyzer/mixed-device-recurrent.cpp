// RUN: %check_placement %s placement-mixed-device %t -- -- %mock_includes
//
// A recurrent module's state is an input like any other: an LSTM's (h, c)
// tuple and a GRU's hidden state must be on the module's device.
#include <torch/torch.h>

void consume(const torch::Tensor &t);

void lstmStateMadeOnTheHost(const torch::Tensor &batch) {
  torch::nn::LSTM lstm(16, 32);
  lstm->to(torch::kCUDA);
  torch::Tensor x = batch.to(torch::kCUDA);
  torch::Tensor h = torch::zeros({1, 8, 32});
  torch::Tensor c = torch::zeros({1, 8, 32});
  auto out = lstm->forward(x, std::make_tuple(h, c));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'x' is on cuda but 'h' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: 'x' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'h' was created on cpu here
}

void lstmStateOnTheDevice(const torch::Tensor &batch) {
  torch::nn::LSTM lstm(16, 32);
  lstm->to(torch::kCUDA);
  torch::Tensor x = batch.to(torch::kCUDA);
  torch::Tensor h = torch::zeros({1, 8, 32}, torch::kCUDA);
  torch::Tensor c = torch::zeros({1, 8, 32}, torch::kCUDA);
  auto out = lstm->forward(x, std::make_tuple(h, c));
}

void gruHiddenStateMadeOnTheHost(torch::Device device, const torch::Tensor &batch) {
  torch::nn::GRU gru(16, 32);
  gru->to(device);
  torch::Tensor hidden = torch::zeros({1, 8, 32});
  auto out = gru->forward(batch.to(device), hidden);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'batch.to(device)' may be on the device in 'device' but 'hidden' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'batch.to(device)' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'hidden' was created on cpu here
}

void gruHiddenStateOnTheModelsDevice(torch::Device device, const torch::Tensor &batch) {
  torch::nn::GRU gru(16, 32);
  gru->to(device);
  torch::Tensor hidden = torch::zeros({1, 8, 32}, torch::device(device));
  auto out = gru->forward(batch.to(device), hidden);
}

// A user module returning (output, state) as a tuple: structured bindings
// and std::get read its elements, on the module's device.
struct CharModelImpl : torch::nn::Module {
  CharModelImpl() : gru(register_module("gru", torch::nn::GRU(16, 32))) {}
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x, const torch::Tensor &h);
  torch::nn::GRU gru;
};
TORCH_MODULE(CharModel);

void hiddenStateCarriedFromTheHost(torch::Device device, const torch::Tensor &corpus, int steps) {
  CharModel model;
  model->to(device);
  torch::Tensor hidden = torch::zeros({1, 8, 32});
  for (int step = 0; step < steps; ++step) {
    auto [logits, next] = model->forward(corpus.to(device), hidden);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'corpus.to(device)' may be on the device in 'device' but 'hidden' is on cpu in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:49: note: 'corpus.to(device)' was moved to the device in 'device' here
    // CHECK-MESSAGES: :[[@LINE-5]]:26: note: 'hidden' was created on cpu here
    hidden = next.detach();
  }
}

void hiddenStateCarriedOnTheDevice(torch::Device device, const torch::Tensor &corpus, int steps) {
  CharModel model;
  model->to(device);
  torch::Tensor hidden = torch::zeros({1, 8, 32}, torch::device(device));
  for (int step = 0; step < steps; ++step) {
    auto out = model->forward(corpus.to(device), hidden);
    hidden = std::get<1>(out).detach();
    consume(std::get<0>(out) + hidden);
  }
}
