// REQUIRES: libtorch
// RUN: %check_placement %s 'placement-mixed-device' %t -- -- -std=c++17 %torch_includes
//
// Tensors that reach an operation inside the library's holders, on the
// real libtorch 1.13 headers, whose holders differ from the mocks': a
// recurrent state passed as `c10::optional<std::tuple<...>>` (made in
// place, held in a variable, or returned by a member helper), a functional
// loss's weight as `c10::optional<Tensor>`, loss options that hold their
// weight tensor, a dataset's tensors (`MNIST::targets()`), and a device
// index passed to a helper through a cast. Each bug beside its correct
// look-alike.
#include <torch/torch.h>

struct SentimentImpl : torch::nn::Module {
  SentimentImpl()
      : embed(register_module("embed", torch::nn::Embedding(1000, 16))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(16, 32)))) {}
  std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch) const {
    return std::make_tuple(torch::zeros({1, batch, 32}), torch::zeros({1, batch, 32}));
  }
  std::tuple<torch::Tensor, torch::Tensor> init_hidden_like(const torch::Tensor &x) const {
    return std::make_tuple(torch::zeros({1, x.size(1), 32}, x.options()),
                           torch::zeros({1, x.size(1), 32}, x.options()));
  }
  torch::Tensor forward(const torch::Tensor &tokens) {
    return std::get<0>(lstm->forward(embed(tokens), init_hidden(tokens.size(1))));
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'embed(tokens)' may be on the device of 'SentimentImpl' but 'init_hidden(tokens.size(1))' is on cpu in call to 'forward' [placement-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:38: note: 'embed(tokens)' was assigned a tensor on the device of 'SentimentImpl' here
    // CHECK-MESSAGES: :[[@LINE-10]]:28: note: 'init_hidden(tokens.size(1))' was created on cpu here
  }
  torch::Tensor forward_on_input_device(const torch::Tensor &tokens) {
    auto x = embed(tokens);
    return std::get<0>(lstm->forward(x, init_hidden_like(x)));
  }
  torch::nn::Embedding embed;
  torch::nn::LSTM lstm;
};
TORCH_MODULE(Sentiment);

void recurrentState(torch::Device device, const torch::Tensor &batch) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(8, 16).batch_first(true));
  lstm->to(device);
  auto x = batch.to(device);
  auto h0 = torch::zeros({1, x.size(0), 16});
  auto c0 = torch::zeros({1, x.size(0), 16});
  auto made_in_place = lstm->forward(x, std::make_tuple(h0, c0));
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'x' may be on the device in 'device' but 'h0' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'x' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: 'h0' was created on cpu here
  std::tuple<torch::Tensor, torch::Tensor> state{h0, c0};
  auto held = lstm->forward(x, state);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'x' may be on the device in 'device' but 'state' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-10]]:18: note: 'x' was moved to the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-10]]:13: note: 'state' was created on cpu here
  // The look-alike: the state made where the input is.
  auto h = torch::zeros({1, x.size(0), 16}, x.options());
  auto c = torch::zeros({1, x.size(0), 16}, x.options());
  auto on_device = lstm->forward(x, std::make_tuple(h, c));
}

void lossWeights(torch::Device device, torch::nn::Linear model, const torch::Tensor &data,
                 const torch::Tensor &target) {
  model->to(device);
  torch::Tensor counts;
  torch::load(counts, "label_counts.pt");
  auto weights = counts.sum() / counts;
  auto output = torch::log_softmax(model(data.to(device)), 1);
  auto loss = torch::nll_loss(output, target.to(device), weights);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'output' may be on the device in 'device' but 'weights' is on cpu in call to 'nll_loss' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'output' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-5]]:31: note: 'weights' was assigned a tensor on cpu here
  auto moved = torch::nll_loss(output, target.to(device), weights.to(device));

  auto train = torch::data::datasets::MNIST("./data");
  torch::Tensor frequency = torch::bincount(train.targets()).to(torch::kFloat);
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(frequency));
  auto weighted = criterion(model(data.to(device)), target.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'model(data.to(device))' may be on the device in 'device' but 'criterion' is on cpu in call to 'forward' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'model(data.to(device))' was assigned a tensor on the device in 'device' here
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: 'criterion' was created on cpu here
  torch::nn::CrossEntropyLoss on_device(torch::nn::CrossEntropyLossOptions().weight(frequency));
  on_device->to(device);
  auto moved_with_loss = on_device(model(data.to(device)), target.to(device));
}

torch::Device try_gpu(int i) {
  if (torch::cuda::device_count() >= static_cast<size_t>(i + 1))
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
  return torch::Device(torch::kCPU);
}

void deviceFromHelper(const torch::Tensor &embeddings) {
  if (!torch::cuda::is_available())
    return;
  auto projection = torch::randn({768, 128}, torch::device(try_gpu(1)));
  auto projected = embeddings.cuda().matmul(projection);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'projection' may be on cpu but 'embeddings.cuda()' is on cuda in call to 'matmul' [placement-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'projection' was created on cpu here
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: 'embeddings.cuda()' was moved to cuda here
  auto same_helper = embeddings.to(try_gpu(1)).matmul(projection);
}
