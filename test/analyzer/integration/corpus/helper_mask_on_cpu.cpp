// issue 8 class 8: a helper in the same file that returns a cpu tensor.
// BUG. `padding_mask` builds the mask of valid positions with torch::arange,
// on the cpu, from a plain length vector; the training step multiplies the
// per-token loss, on `device`, by that mask. Look-alike of helper_mask_like_input.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor padding_mask(const std::vector<int64_t> &lengths, int64_t max_len) {
  auto len = torch::tensor(lengths).unsqueeze(1);
  return (torch::arange(max_len).unsqueeze(0) < len).to(torch::kFloat);
}

std::vector<int64_t> sample_lengths(int64_t batch, int64_t max_len) {
  std::vector<int64_t> lengths;
  for (int64_t i = 0; i < batch; ++i) {
    lengths.push_back(1 + (i * 7) % max_len);
  }
  return lengths;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 8000, dim = 256, max_len = 64, batch = 32;
  torch::nn::Embedding embed(vocab, dim);
  torch::nn::LSTM encoder(torch::nn::LSTMOptions(dim, dim).batch_first(true));
  torch::nn::Linear classifier(dim, vocab);
  embed->to(device);
  encoder->to(device);
  classifier->to(device);
  std::vector<torch::Tensor> params = embed->parameters();
  for (auto &p : encoder->parameters()) {
    params.push_back(p);
  }
  for (auto &p : classifier->parameters()) {
    params.push_back(p);
  }
  torch::optim::Adam optimizer(params, 1e-3);

  for (int64_t step = 0; step < 1000; ++step) {
    auto tokens = torch::randint(vocab, {batch, max_len + 1}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto lengths = sample_lengths(batch, max_len);
    auto hidden = std::get<0>(encoder(embed(tokens.slice(1, 0, max_len))));
    auto logits = classifier(hidden);
    auto token_loss = torch::cross_entropy_loss(logits.reshape({-1, vocab}),
                                                tokens.slice(1, 1).reshape({-1}), {}, at::Reduction::None)
                          .view({batch, max_len});
    auto mask = padding_mask(lengths, max_len);
    auto loss = (token_loss * mask).sum() / mask.sum(); // expect: placement-mixed-device
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (step % 100 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
  return 0;
}
