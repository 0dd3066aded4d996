// issue 8 class 6: an LSTM's initial state made on the cpu.
// CORRECT. The LSTM and the head are moved to `device`, the input sequences
// too, and the initial states are made with the input's options, on its
// device. Look-alike of lstm_hidden_state_cpu.cpp.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct SequenceDataset : torch::data::datasets::Dataset<SequenceDataset> {
  SequenceDataset(int64_t count, int64_t length, int64_t features)
      : inputs(torch::randn({count, length, features})), labels(torch::randint(5, {count})) {}
  torch::data::Example<> get(size_t index) override { return {inputs[index], labels[index]}; }
  torch::optional<size_t> size() const override { return inputs.size(0); }
  torch::Tensor inputs, labels;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t layers = 2, hidden = 64;
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(32, hidden).num_layers(layers).batch_first(true));
  torch::nn::Linear head(hidden, 5);
  lstm->to(device);
  head->to(device);
  std::vector<torch::Tensor> params = lstm->parameters();
  for (auto &p : head->parameters()) {
    params.push_back(p);
  }
  torch::optim::Adam optimizer(params, 1e-3);

  auto loader = torch::data::make_data_loader(
      SequenceDataset(1024, 50, 32).map(torch::data::transforms::Stack<>()), 32);
  for (int epoch = 0; epoch < 20; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.to(device);
      auto y = batch.target.to(device);
      auto h0 = torch::zeros({layers, x.size(0), hidden}, x.options());
      auto c0 = torch::zeros({layers, x.size(0), hidden}, x.options());
      auto output = lstm->forward(x, std::make_tuple(h0, c0));
      auto last = std::get<0>(output).select(1, -1);
      auto loss = torch::cross_entropy_loss(head(last), y);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
  return 0;
}
