// Rule: placement-pageable-non-blocking (a helper's torch::tensor of run-time data,
// and a mask computed from it on the host, both uploaded with non_blocking).
// Modelled on: C++ text-classification servers that tokenize on the host and
// upload "asynchronously" (the pattern of many libtorch BERT serving samples), and
// pytorch/pytorch#42539 (non_blocking only overlaps copies from pinned memory).
// Why it is a bug: encode() returns `torch::tensor(ids)` (ordinary host memory), and
// `ids.ne(pad_id)` is a new host tensor too; both uploads with non_blocking=true
// are staged synchronously and overlap nothing (two copies, two markers).
// Twin: pageable_token_ids_and_mask_upload_fixed.cpp (ids pinned, the mask computed on the device).
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

namespace tok {

constexpr int64_t kPad = 0;

torch::Tensor encode(const std::vector<std::string> &texts, int64_t max_len) {
  std::vector<int64_t> ids;
  ids.reserve(texts.size() * static_cast<size_t>(max_len));
  for (const auto &text : texts)
    for (int64_t i = 0; i < max_len; ++i)
      ids.push_back(i < static_cast<int64_t>(text.size()) ? 1 + static_cast<unsigned char>(text[static_cast<size_t>(i)]) % 255 : kPad);
  return torch::tensor(ids).view({static_cast<int64_t>(texts.size()), max_len});
}

} // namespace tok

struct BagClassifierImpl : torch::nn::Module {
  BagClassifierImpl() : emb(register_module("emb", torch::nn::Embedding(256, 48))), out(register_module("out", torch::nn::Linear(48, 2))) {}
  torch::Tensor forward(const torch::Tensor &ids, const torch::Tensor &mask) {
    auto m = mask.unsqueeze(-1).to(torch::kFloat);
    return out((emb(ids) * m).sum(1) / m.sum(1).clamp_min(1));
  }
  torch::nn::Embedding emb;
  torch::nn::Linear out;
};
TORCH_MODULE(BagClassifier);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  BagClassifier clf;
  clf->to(device);
  clf->eval();

  const std::vector<std::string> texts{"great product", "terrible support", "works on my gpu", "fails on my laptop"};
  torch::NoGradGuard no_grad;
  auto ids = tok::encode(texts, 24);
  auto ids_d = ids.to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
  auto mask_d = ids.ne(tok::kPad).to(device, /*non_blocking=*/true); // expect: placement-pageable-non-blocking
  auto probs = torch::softmax(clf(ids_d, mask_d), 1).cpu();
  auto acc = probs.accessor<float, 2>();
  for (int64_t i = 0; i < acc.size(0); ++i)
    std::cout << texts[static_cast<size_t>(i)] << " -> positive " << acc[i][1] << "\n";
  return 0;
}
