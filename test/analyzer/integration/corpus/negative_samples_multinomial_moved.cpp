// issue 19 class 1 (factories beyond the list): multinomial of a host-made tensor, moved at once.
// BUG (create-then-move). Skip-gram with negative sampling: the negatives of
// each batch are drawn uniformly by `torch::multinomial(torch::ones({vocab}),
// ...)`: `ones` is made on the host, sampled on the host, and the samples are
// moved at once, every batch. Made with the device in its options, the whole
// draw runs there (README.md: `bernoulli`/`multinomial` count when their input
// is itself a host factory's tensor in the same chain).
#include <torch/torch.h>

#include <iostream>

struct SkipGramImpl : torch::nn::Module {
  SkipGramImpl(int64_t vocab, int64_t dim)
      : in_embed(register_module("in_embed", torch::nn::Embedding(vocab, dim))),
        out_embed(register_module("out_embed", torch::nn::Embedding(vocab, dim))) {}
  torch::Tensor forward(const torch::Tensor &centre, const torch::Tensor &context, const torch::Tensor &negatives) {
    auto c = in_embed(centre).unsqueeze(2);                         // [B, D, 1]
    auto pos = torch::bmm(out_embed(context).unsqueeze(1), c).squeeze();   // [B]
    auto neg = torch::bmm(out_embed(negatives), c).squeeze(2);      // [B, K]
    return -(torch::log_sigmoid(pos) + torch::log_sigmoid(-neg).sum(1)).mean();
  }
  torch::nn::Embedding in_embed, out_embed;
};
TORCH_MODULE(SkipGram);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 30000, negatives_per_pair = 5, batch = 1024;
  torch::Tensor pairs;
  torch::load(pairs, "skipgram_pairs.pt"); // [N, 2] int64
  pairs = pairs.to(device);
  SkipGram model(vocab, 128);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  for (int64_t start = 0; start + batch <= pairs.size(0); start += batch) {
    auto chunk = pairs.narrow(0, start, batch);
    auto negatives = torch::multinomial(torch::ones({vocab}), batch * negatives_per_pair, true).view({batch, negatives_per_pair}).to(device); // expect: placement-create-then-move
    optimizer.zero_grad();
    auto loss = model->forward(chunk.select(1, 0), chunk.select(1, 1), negatives);
    loss.backward();
    optimizer.step();
  }
  torch::save(model, "skipgram.pt");
  return 0;
}
