// Rule: placement-unguarded-cuda (a GPU-count option used without device_count()).
// Modelled on: hand-written data parallelism in libtorch (the DataParallel
// replicate/scatter pattern of torch::nn::parallel, written out by users who clone
// the model once per GPU), with a `--gpus` option defaulting to 2, and reports of
// "invalid device ordinal" when such a program meets a smaller machine
// (csxmli2016/DFDNet#7, NVIDIA/vid2vid#17, KimMeen/Time-LLM#10: GPU ids or counts
// from options, no check against the GPUs present).
// Why it is a bug: build_replicas() moves one clone of the model to
// cuda:0 ... cuda:(gpus-1) for the count the user typed (2 by default), never
// comparing it with torch::cuda::device_count(): it fails on a machine without a
// GPU, and on one with a single GPU at cuda:1.
// Twin: unguarded_gpus_option_replicas_fixed.cpp (the count is capped by device_count()).
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

// Cloneable, so that clone() can make the per-GPU replicas.
struct RegressorImpl : torch::nn::Cloneable<RegressorImpl> {
  RegressorImpl() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    fc2 = register_module("fc2", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Regressor);

struct Options {
  int gpus = 2;
  int64_t batch = 512;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--gpus") o.gpus = std::stoi(argv[++i]);
    else if (arg == "--batch") o.batch = std::stoll(argv[++i]);
  }
  return o;
}

std::vector<std::shared_ptr<RegressorImpl>> build_replicas(const Regressor &model, int gpus) {
  std::vector<std::shared_ptr<RegressorImpl>> replicas;
  for (int i = 0; i < gpus; ++i) {
    auto replica = std::dynamic_pointer_cast<RegressorImpl>(model->clone());
    replica->to(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i))); // expect: placement-unguarded-cuda
    replicas.push_back(replica);
  }
  return replicas;
}

torch::Tensor parallel_forward(std::vector<std::shared_ptr<RegressorImpl>> &replicas, const torch::Tensor &input) {
  auto shards = input.chunk(static_cast<int64_t>(replicas.size()), 0);
  const auto output_device = replicas.front()->fc1->weight.device();
  std::vector<torch::Tensor> outputs;
  for (size_t i = 0; i < shards.size(); ++i) {
    const auto replica_device = replicas[i]->fc1->weight.device();
    outputs.push_back(replicas[i]->forward(shards[i].to(replica_device)).to(output_device));
  }
  return torch::cat(outputs, 0);
}

int main(int argc, char **argv) {
  const Options opts = parse(argc, argv);
  Regressor model;
  model->eval();
  auto replicas = build_replicas(model, opts.gpus);

  torch::NoGradGuard no_grad;
  auto input = torch::randn({opts.batch, 16});
  auto out = parallel_forward(replicas, input);
  std::cout << "ran " << out.size(0) << " samples on " << replicas.size() << " replicas, mean "
            << out.mean().item<float>() << "\n";
  return 0;
}
