// issue 19 class 7 (consequences across functions): a helper returns a pair of tensors; only one is moved.
// BUG (mixed-device). A sequence-to-sequence trainer gets (source, target)
// token batches as a std::pair from a helper and unpacks them with a
// structured binding. The source is moved, the target is not, and the loss
// compares the decoder's logits on `device` with the cpu target.
// Look-alike: loader_pair_both_moved.cpp.
#include <torch/torch.h>

#include <iostream>
#include <utility>

std::pair<torch::Tensor, torch::Tensor> make_batch(const torch::Tensor &src_ids, const torch::Tensor &tgt_ids,
                                                   int64_t start, int64_t size) {
  return {src_ids.narrow(0, start, size), tgt_ids.narrow(0, start, size)};
}

struct TranslatorImpl : torch::nn::Module {
  TranslatorImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        transformer(register_module("transformer", torch::nn::Transformer(torch::nn::TransformerOptions(dim, 4, 2, 2)))),
        out(register_module("out", torch::nn::Linear(dim, vocab))) {}
  torch::Tensor forward(const torch::Tensor &src, const torch::Tensor &tgt_in) {
    auto h = transformer(embed(src).transpose(0, 1), embed(tgt_in).transpose(0, 1));
    return out(h.transpose(0, 1));
  }
  torch::nn::Embedding embed;
  torch::nn::Transformer transformer;
  torch::nn::Linear out;
};
TORCH_MODULE(Translator);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 16000;
  torch::Tensor src_ids, tgt_ids;
  torch::load(src_ids, "train.de.pt");
  torch::load(tgt_ids, "train.en.pt");
  Translator model(vocab, 256);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(5e-4).betas({0.9, 0.98}));
  for (int64_t start = 0; start + 32 <= src_ids.size(0); start += 32) {
    auto [src, tgt] = make_batch(src_ids, tgt_ids, start, 32);
    src = src.to(device);
    const int64_t len = tgt.size(1);
    auto logits = model->forward(src, tgt.narrow(1, 0, len - 1).to(device));
    auto gold = tgt.narrow(1, 1, len - 1).reshape({-1});
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, vocab}), gold); // expect: placement-mixed-device
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  return 0;
}
