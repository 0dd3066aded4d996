// Rule: placement-pageable-non-blocking, correct look-alike.
// Modelled on: C++ text-classification servers that tokenize on the host and
// upload asynchronously, fixed the way the PyTorch docs advise (pin the host
// tensor; compute what can be computed on the device there).
// Why it is correct: encode() pins its result when CUDA is there (pin_memory()
// needs it; on the CPU the upload copies nothing), so the non_blocking upload of
// the ids reads page-locked memory, and the mask is computed from the uploaded ids
// on the device instead of being uploaded.
// Twin: pageable_token_ids_and_mask_upload.cpp (both uploads from pageable memory).
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
  auto batch = torch::tensor(ids).view({static_cast<int64_t>(texts.size()), max_len});
  return torch::cuda::is_available() ? batch.pin_memory() : batch;
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
  auto ids_d = ids.to(device, /*non_blocking=*/true);
  auto mask_d = ids_d.ne(tok::kPad);
  auto probs = torch::softmax(clf(ids_d, mask_d), 1).cpu();
  auto acc = probs.accessor<float, 2>();
  for (int64_t i = 0; i < acc.size(0); ++i)
    std::cout << texts[static_cast<size_t>(i)] << " -> positive " << acc[i][1] << "\n";
  return 0;
}
