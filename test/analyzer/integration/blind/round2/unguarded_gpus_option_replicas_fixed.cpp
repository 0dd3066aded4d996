// Rule: placement-unguarded-cuda, correct look-alike (a GPU-count option).
// Modelled on: hand-written data parallelism in libtorch (one model clone per GPU,
// as torch::nn::parallel::replicate does), with a `--gpus` option.
// Why it is correct: main caps the requested count with torch::cuda::device_count()
// and runs the model on the CPU when no GPU is there, so build_replicas() only asks
// for devices that exist (its one caller passes the capped count).
// Twin: unguarded_gpus_option_replicas.cpp (the option is used as typed).
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
    replica->to(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i)));
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
  const int usable = std::min(opts.gpus, static_cast<int>(torch::cuda::device_count()));
  torch::NoGradGuard no_grad;
  auto input = torch::randn({opts.batch, 16});
  if (usable == 0) {
    std::cout << "no GPU: ran on the CPU, mean " << model->forward(input).mean().item<float>() << "\n";
    return 0;
  }
  auto replicas = build_replicas(model, usable);
  auto out = parallel_forward(replicas, input);
  std::cout << "ran " << out.size(0) << " samples on " << replicas.size() << " replicas, mean "
            << out.mean().item<float>() << "\n";
  return 0;
}
