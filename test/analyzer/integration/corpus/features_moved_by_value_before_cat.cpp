// issue 19 class 5 (structs and batch types): a list of tensors "moved" by a by-value range-for.
// BUG (mixed-device). A tabular model concatenates three feature groups. The
// loop `for (auto field : fields) field = field.to(device);` moves copies of
// the handles: the vector's elements stay on the cpu, so the concatenated
// input meets the model on `device`. (The result of `to` is not discarded:
// it is assigned, to a copy.)
// Look-alike: features_moved_by_reference_before_cat.cpp.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct ChurnBatch {
  torch::Tensor numeric;     // [B, 12] float
  torch::Tensor categorical; // [B, 30] one-hot float
  torch::Tensor text_bow;    // [B, 500] float
  torch::Tensor label;       // [B] float
};

ChurnBatch read_batch(int64_t index, int64_t batch) {
  torch::Tensor all;
  torch::load(all, "churn_" + std::to_string(index) + ".pt");
  return {all.narrow(1, 0, 12), all.narrow(1, 12, 30), all.narrow(1, 42, 500), all.select(1, 542)};
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Linear(542, 128), torch::nn::ReLU(), torch::nn::Dropout(0.1),
                              torch::nn::Linear(128, 1));
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  for (int64_t index = 0; index < 100; ++index) {
    ChurnBatch batch = read_batch(index, 256);
    std::vector<torch::Tensor> fields = {batch.numeric, batch.categorical, batch.text_bow};
    for (auto field : fields)
      field = field.to(device);
    auto label = batch.label.to(device);
    optimizer.zero_grad();
    auto logits = model->forward(torch::cat(fields, 1)).squeeze(1); // expect: placement-mixed-device
    auto loss = torch::binary_cross_entropy_with_logits(logits, label);
    loss.backward();
    optimizer.step();
  }
  return 0;
}
