// issue 19 class 13 (a batch type's own to()): a member function that reassigns the batch's fields, called once per batch.
// CORRECT. A speech batch moves itself: `to_device` assigns each field its
// moved copy. The training loop calls it on each newly read batch, so every
// transfer moves new data. It is not an invariant member moved on every call
// (the object is a different batch each time).
#include <torch/torch.h>

#include <iostream>

struct SpeechBatch {
  torch::Tensor features;        // [B, T, 80]
  torch::Tensor feature_lengths; // [B]
  torch::Tensor targets;         // [B, S]
  torch::Tensor target_lengths;  // [B]

  void to_device(const torch::Device &device) {
    features = features.to(device);
    targets = targets.to(device);
    feature_lengths = feature_lengths.to(device);
    target_lengths = target_lengths.to(device);
  }
};

SpeechBatch read_batch(int64_t index) {
  SpeechBatch b;
  const std::string stem = "librispeech/" + std::to_string(index);
  torch::load(b.features, stem + "_fbank.pt");
  torch::load(b.feature_lengths, stem + "_flen.pt");
  torch::load(b.targets, stem + "_tokens.pt");
  torch::load(b.target_lengths, stem + "_tlen.pt");
  return b;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::LSTM encoder(torch::nn::LSTMOptions(80, 320).num_layers(3).batch_first(true));
  torch::nn::Linear classifier(320, 29);
  encoder->to(device);
  classifier->to(device);
  std::vector<torch::Tensor> params = encoder->parameters();
  for (auto &p : classifier->parameters())
    params.push_back(p);
  torch::optim::Adam optimizer(params, 5e-4);
  for (int64_t index = 0; index < 2000; ++index) {
    SpeechBatch batch = read_batch(index);
    batch.to_device(device);
    auto hidden = std::get<0>(encoder->forward(batch.features));
    auto log_probs = torch::log_softmax(classifier(hidden), 2).transpose(0, 1);
    auto loss = torch::ctc_loss(log_probs, batch.targets, batch.feature_lengths, batch.target_lengths);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
