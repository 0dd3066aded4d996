// training: trains a two-layer MLP on a synthetic regression task, on any
// device, with the gradients written out by hand (the runtime has no
// autograd).
//
// The placement habits it shows, which placelint checks for:
//   - one device variable, chosen once (cuda when available, else cpu);
//   - data made on the host in batches, each batch moved once;
//   - the model moved once, in place (Module::to);
//   - on cuda, batches pinned and uploaded with non_blocking copies;
//   - the loss summed on the device and read only when it is printed, not
//     synced on every step.
// It exits with 1 when the loss did not fall to at most half its first value.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <pl/pl.h>

#include "cli.h"
#include "mlp.h"
#include "synthetic_task.h"
#include "program_main.h"
#include "weights_file.h"

namespace {

constexpr const char *kUsage =
    "usage: training [--device DEVICE] [--steps N] [--batch-size N] [--print-every N]\n"
    "                [--learning-rate X] [--seed N] [--save FILE]\n"
    "  DEVICE: cpu, sim, sim:N, cuda, cuda:N (default: cuda when available, else cpu)\n";

// relu'(z) is 1 where z > 0 and 0 elsewhere. The runtime has no comparison
// op yet, so it is computed from h = relu(z) as h / (h + kTiny): exactly 1 in
// float for every h above 1e-22 and exactly 0 for h == 0.
constexpr double kTiny = 1e-30;

struct Settings {
  pl::Device device = pl::Device(pl::kCPU);
  std::int64_t steps = 600;
  std::int64_t batch_size = 64;
  std::int64_t print_every = 100;
  double learning_rate = 0.05;
  std::int64_t seed = 1;
  std::string save_path;
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
    } else if (name == "--device") {
      device = value;
    } else if (name == "--steps") {
      settings.steps = examples::parse_positive(name, value);
    } else if (name == "--batch-size") {
      settings.batch_size = examples::parse_positive(name, value);
    } else if (name == "--print-every") {
      settings.print_every = examples::parse_positive(name, value);
    } else if (name == "--learning-rate") {
      settings.learning_rate = examples::parse_positive_real(name, value);
    } else if (name == "--seed") {
      settings.seed = examples::parse_positive(name, value);
    } else if (name == "--save") {
      settings.save_path = value;
    } else {
      throw examples::UsageError("unknown option '" + std::string(name) + "'");
    }
  }
  if (settings.print_every > settings.steps)
    throw examples::UsageError("--print-every is larger than --steps: nothing would be printed");
  settings.device = examples::choose_device(device);
  return settings;
}

// One step of gradient descent on the mean squared error; returns the loss
// (a 0-dim tensor on the device: reading it would be a sync).
pl::Tensor train_step(examples::Mlp &model, const pl::Tensor &inputs, const pl::Tensor &targets,
                      double learning_rate) {
  pl::nn::Linear &fc1 = model->fc1;
  pl::nn::Linear &fc2 = model->fc2;
  const pl::Tensor hidden = fc1(inputs).relu();
  const pl::Tensor outputs = fc2(hidden);
  const pl::Tensor error = outputs - targets;
  const pl::Tensor loss = (error * error).mean();

  // Backward, for loss = mean(error^2) over all rows * outputs elements.
  const pl::Tensor d_outputs = error * (2.0 / static_cast<double>(error.numel()));
  const pl::Tensor d_fc2_weight = d_outputs.t().matmul(hidden);
  const pl::Tensor d_fc2_bias = d_outputs.sum({0});
  const pl::Tensor active = hidden / (hidden + kTiny);
  const pl::Tensor d_hidden = d_outputs.matmul(fc2->weight) * active;
  const pl::Tensor d_fc1_weight = d_hidden.t().matmul(inputs);
  const pl::Tensor d_fc1_bias = d_hidden.sum({0});

  fc2->weight.sub_(d_fc2_weight * learning_rate);
  fc2->bias.sub_(d_fc2_bias * learning_rate);
  fc1->weight.sub_(d_fc1_weight * learning_rate);
  fc1->bias.sub_(d_fc1_bias * learning_rate);
  return loss;
}

// A batch on the device. On cuda it goes through pinned memory with a
// non_blocking copy, as libtorch's data loaders do: one asynchronous DMA that
// overlaps with the host preparing the next batch, and the kernels that read
// it are queued after it on the same stream. Elsewhere a plain transfer.
pl::Tensor upload(const pl::Tensor &batch, pl::Device device) {
  if (!device.is_cuda())
    return batch.to(device);
  return batch.pin_memory().to(device, batch.dtype(), /*non_blocking=*/true);
}

int train(const Settings &settings) {
  const pl::Device device = settings.device;
  const examples::SyntheticTask task;
  pl::manual_seed(static_cast<std::uint64_t>(settings.seed));
  examples::Mlp model(examples::kFeatures, examples::kHidden, examples::kOutputs);
  model->to(device);

  std::cout << "training on " << device << ": " << settings.steps << " steps of "
            << settings.batch_size << " samples\n";
  pl::Tensor loss_sum = pl::zeros({}, device);
  std::optional<float> first_loss;
  float last_loss = 0;
  for (std::int64_t step = 1; step <= settings.steps; ++step) {
    const pl::Tensor host_inputs = task.preprocess(task.raw_readings(settings.batch_size));
    const pl::Tensor host_targets = task.targets(host_inputs);
    const pl::Tensor inputs = upload(host_inputs, device);
    const pl::Tensor targets = upload(host_targets, device);
    loss_sum += train_step(model, inputs, targets, settings.learning_rate);

    if (step % settings.print_every == 0) {
      const float mean_loss =
          loss_sum.item<float>() / static_cast<float>(settings.print_every);
      loss_sum.zero_();
      if (!first_loss)
        first_loss = mean_loss;
      last_loss = mean_loss;
      std::printf("  step %5lld  loss %.4f\n", static_cast<long long>(step), mean_loss);
    }
  }

  if (!settings.save_path.empty()) {
    examples::save_weights(settings.save_path, examples::parameters_of(*model));
    std::cout << "weights saved to " << settings.save_path << "\n";
  }
  if (!(last_loss <= 0.5f * *first_loss)) {
    std::fprintf(stderr, "training: the loss did not fall to half its first value (%.4f -> %.4f)\n",
                 *first_loss, last_loss);
    return 1;
  }
  std::printf("loss fell from %.4f to %.4f\n", *first_loss, last_loss);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return examples::run_program_main("training", kUsage,
                                    [&] { return train(parse_settings(argc, argv)); });
}
