// issue 8 class 5: struct fields moved one by one, one forgotten.
// BUG. Each batch is a struct of three tensors; the loop moves `tokens` and
// `labels` field by field and forgets `mask`, so the masked loss multiplies a
// device loss by the cpu mask. (`mask.sum()` below it is a 0-dim reduction and
// would be fine.) Look-alike of struct_fields_all_moved.cpp.
#include <torch/torch.h>

#include <iostream>

struct TaggingBatch {
  torch::Tensor tokens;
  torch::Tensor labels;
  torch::Tensor mask;
};

TaggingBatch make_batch(int64_t batch_size, int64_t max_len, int64_t vocab, int64_t tags) {
  TaggingBatch batch;
  auto lengths = torch::randint(1, max_len + 1, {batch_size, 1});
  batch.tokens = torch::randint(vocab, {batch_size, max_len});
  batch.labels = torch::randint(tags, {batch_size, max_len});
  batch.mask = (torch::arange(max_len).unsqueeze(0) < lengths).to(torch::kFloat);
  return batch;
}

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t dim, int64_t tags)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(dim, dim).batch_first(true)))),
        out(register_module("out", torch::nn::Linear(dim, tags))) {}
  torch::Tensor forward(const torch::Tensor &tokens) { return out(std::get<0>(gru(embed(tokens)))); }
  torch::nn::Embedding embed;
  torch::nn::GRU gru;
  torch::nn::Linear out;
};
TORCH_MODULE(Tagger);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 5000, tags = 17;
  Tagger tagger(vocab, 128, tags);
  tagger->to(device);
  torch::optim::Adam optimizer(tagger->parameters(), 1e-3);

  for (int64_t step = 0; step < 2000; ++step) {
    TaggingBatch batch = make_batch(32, 40, vocab, tags);
    batch.tokens = batch.tokens.to(device);
    batch.labels = batch.labels.to(device);
    optimizer.zero_grad();
    auto logits = tagger(batch.tokens);
    auto token_loss = torch::cross_entropy_loss(logits.reshape({-1, tags}), batch.labels.reshape({-1}),
                                                /*weight=*/{}, at::Reduction::None)
                          .view_as(batch.labels);
    auto loss = (token_loss * batch.mask).sum() / batch.mask.sum(); // expect: placement-mixed-device
    loss.backward();
    optimizer.step();
    if (step % 100 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
  return 0;
}
