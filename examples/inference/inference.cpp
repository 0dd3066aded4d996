// inference: runs the model trained by examples/training on new data.
//
// The placement pattern of an inference service: preprocess on the host,
// move the batch to the device once, run the model there, bring the result
// back once, post-process on the host. It exits with 1 when the model does
// not beat the trivial predictor (the mean of the targets) by half.
#include <cstdio>
#include <iostream>
#include <string>

#include <pl/pl.h>

#include "cli.h"
#include "mlp.h"
#include "synthetic_task.h"
#include "program_main.h"
#include "weights_file.h"

namespace {

constexpr const char *kUsage =
    "usage: inference --weights FILE [--device DEVICE] [--samples N] [--seed N]\n"
    "  FILE: written by `training --save FILE` (format: examples/inference/README.md)\n"
    "  DEVICE: cpu, sim, sim:N, cuda, cuda:N (default: cuda when available, else cpu)\n";

struct Settings {
  std::string weights_path;
  pl::Device device = pl::Device(pl::kCPU);
  std::int64_t samples = 256;
  std::int64_t seed = 7;
};

Settings parse_settings(int argc, char **argv) {
  Settings settings;
  std::string device;
  examples::OptionReader options(argc, argv);
  while (options.next()) {
    const std::string_view name = options.name();
    const std::string_view value = options.value();
    if (name == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (name == "--weights") {
      settings.weights_path = value;
    } else if (name == "--device") {
      device = value;
    } else if (name == "--samples") {
      settings.samples = examples::parse_positive(name, value);
    } else if (name == "--seed") {
      settings.seed = examples::parse_positive(name, value);
    } else {
      throw examples::UsageError("unknown option '" + std::string(name) + "'");
    }
  }
  if (settings.weights_path.empty())
    throw examples::UsageError("--weights FILE is required");
  settings.device = examples::choose_device(device);
  return settings;
}

// The share of rows whose largest output is at the same index in both.
double class_agreement(const pl::Tensor &predicted, const pl::Tensor &expected) {
  const pl::Tensor predicted_class = predicted.argmax(1);
  const pl::Tensor expected_class = expected.argmax(1);
  const std::int64_t *a = predicted_class.data_ptr<std::int64_t>();
  const std::int64_t *b = expected_class.data_ptr<std::int64_t>();
  std::int64_t same = 0;
  for (std::int64_t row = 0; row < predicted_class.numel(); ++row)
    same += a[row] == b[row] ? 1 : 0;
  return static_cast<double>(same) / static_cast<double>(predicted_class.numel());
}

int infer(const Settings &settings) {
  const pl::Device device = settings.device;
  const examples::SyntheticTask task;
  examples::Mlp model(examples::kFeatures, examples::kHidden, examples::kOutputs);
  examples::load_parameters(*model, examples::load_weights(settings.weights_path),
                            settings.weights_path);
  model->to(device);
  model->eval();
  // Inference needs no gradients: the ops record nothing.
  const pl::NoGradGuard no_grad;

  pl::manual_seed(static_cast<std::uint64_t>(settings.seed));
  const pl::Tensor inputs = task.preprocess(task.raw_readings(settings.samples));
  const pl::Tensor outputs = model(inputs.to(device)).cpu();

  const pl::Tensor targets = task.targets(inputs);
  const pl::Tensor error = outputs - targets;
  const pl::Tensor spread = targets - targets.mean({0});
  const float model_error = (error * error).mean().item<float>();
  const float baseline_error = (spread * spread).mean().item<float>();
  std::printf("%lld samples on %s: mean squared error %.4f (predicting the mean: %.4f)\n",
              static_cast<long long>(settings.samples), device.str().c_str(), model_error,
              baseline_error);
  std::printf("largest output at the teacher's index for %.1f%% of the samples\n",
              100.0 * class_agreement(outputs, targets));
  if (!(model_error <= 0.5f * baseline_error)) {
    std::fprintf(stderr, "inference: the model does not beat predicting the mean by half\n");
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return examples::run_program_main("inference", kUsage,
                                    [&] { return infer(parse_settings(argc, argv)); });
}
