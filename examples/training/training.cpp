// training: trains a two-layer MLP on a synthetic regression task, on any
// device, with autograd and pl::optim::Adam.
//
// The placement habits it shows, which placelint checks for:
//   - one device variable, chosen once (cuda when available, else cpu);
//   - data made on the host in batches, each batch moved once;
//   - the model moved once, in place (Module::to), before the optimizer is
//     made: its parameters stay leaves, and Adam makes its state on their
//     device;
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

struct Settings {
  pl::Device device = pl::Device(pl::kCPU);
  std::int64_t steps = 600;
  std::int64_t batch_size = 64;
  std::int64_t print_every = 100;
  double learning_rate = 0.01;
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

// One step of Adam on the mean squared error; returns the loss, detached
// from the graph (a 0-dim tensor on the device: reading it would be a sync).
pl::Tensor train_step(examples::Mlp &model, pl::optim::Adam &optimizer, const pl::Tensor &inputs,
                      const pl::Tensor &targets) {
  optimizer.zero_grad();
  const pl::Tensor error = model(inputs) - targets;
  const pl::Tensor loss = (error * error).mean();
  loss.backward();
  optimizer.step();
  return loss.detach();
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
  pl::optim::Adam optimizer(model->parameters(), pl::optim::AdamOptions(settings.learning_rate));

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
    loss_sum += train_step(model, optimizer, inputs, targets);

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
