// classifier: trains a small classifier (nn::Sequential, SGD with momentum)
// on three clusters of points in the plane, on any device, and checks its
// accuracy on held-out points it never trained on.
//
// The placement habits it shows, which placelint checks for:
//   - one device variable, chosen once;
//   - the data set, small enough, moved to the device once, before the loop;
//     batches are views of it there (moving each batch again every epoch
//     would copy the same unchanged data: placement-transfer-in-loop);
//   - the model moved in place before the optimizer is made;
//   - predictions brought back to the host once, for the accuracy.
// It exits with 1 when the held-out accuracy is below 90%.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <pl/pl.h>

#include "cli.h"
#include "program_main.h"

namespace {

constexpr const char *kUsage =
    "usage: classifier [--device DEVICE] [--epochs N] [--seed N]\n"
    "  DEVICE: cpu, sim, sim:N, cuda, cuda:N (default: cuda when available, else cpu)\n";

constexpr std::int64_t kClasses = 3;
constexpr std::int64_t kTrainingPoints = 600;
constexpr std::int64_t kHeldOutPoints = 300;
constexpr std::int64_t kBatchSize = 50;
constexpr double kRequiredAccuracy = 0.9;

struct Settings {
  pl::Device device = pl::Device(pl::kCPU);
  std::int64_t epochs = 20;
  std::int64_t seed = 1;
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
    } else if (name == "--epochs") {
      settings.epochs = examples::parse_positive(name, value);
    } else if (name == "--seed") {
      settings.seed = examples::parse_positive(name, value);
    } else {
      throw examples::UsageError("unknown option '" + std::string(name) + "'");
    }
  }
  settings.device = examples::choose_device(device);
  return settings;
}

// Points around three centres on a circle, on the host: the features
// (points x 2), the one-hot targets (points x kClasses) and the labels.
struct DataSet {
  pl::Tensor features;
  pl::Tensor one_hot;
  std::vector<std::int64_t> labels;
};

DataSet make_points(std::int64_t points, std::mt19937_64 &generator) {
  std::normal_distribution<double> noise(0.0, 0.9);
  std::vector<double> features, one_hot;
  std::vector<std::int64_t> labels;
  for (std::int64_t i = 0; i < points; ++i) {
    const std::int64_t label = i % kClasses;
    const double angle = 2 * std::numbers::pi * static_cast<double>(label) / kClasses;
    features.push_back(2 * std::cos(angle) + noise(generator));
    features.push_back(2 * std::sin(angle) + noise(generator));
    for (std::int64_t c = 0; c < kClasses; ++c)
      one_hot.push_back(c == label ? 1.0 : 0.0);
    labels.push_back(label);
  }
  return {pl::tensor(features).view({points, 2}), pl::tensor(one_hot).view({points, kClasses}),
          labels};
}

// The mean cross-entropy of the logits against one-hot targets, through a
// log-softmax shifted by each row's maximum.
pl::Tensor cross_entropy(const pl::Tensor &logits, const pl::Tensor &one_hot) {
  const pl::Tensor shifted = logits - std::get<0>(logits.max(1, true));
  const pl::Tensor log_probabilities = shifted - shifted.exp().sum({1}, true).log();
  return -(one_hot * log_probabilities).sum({1}).mean();
}

double accuracy(pl::nn::Sequential &model, const pl::Tensor &features,
                const std::vector<std::int64_t> &labels) {
  const pl::NoGradGuard no_grad;
  const pl::Tensor predicted = model(features).argmax(1).cpu();
  const std::int64_t *classes = predicted.data_ptr<std::int64_t>();
  std::int64_t correct = 0;
  for (std::size_t i = 0; i < labels.size(); ++i)
    correct += classes[i] == labels[i] ? 1 : 0;
  return static_cast<double>(correct) / static_cast<double>(labels.size());
}

int train(const Settings &settings) {
  const pl::Device device = settings.device;
  std::mt19937_64 generator(static_cast<std::uint64_t>(settings.seed));
  const DataSet training = make_points(kTrainingPoints, generator);
  const DataSet held_out = make_points(kHeldOutPoints, generator);
  const pl::Tensor features = training.features.to(device);
  const pl::Tensor targets = training.one_hot.to(device);
  const pl::Tensor held_out_features = held_out.features.to(device);

  pl::manual_seed(static_cast<std::uint64_t>(settings.seed));
  pl::nn::Sequential model(pl::nn::Linear(2, 16), pl::nn::ReLU(), pl::nn::Linear(16, kClasses));
  model->to(device);
  pl::optim::SGD optimizer(model->parameters(), pl::optim::SGDOptions(0.1).momentum(0.9));

  std::cout << "training on " << device << ": " << settings.epochs << " epochs of "
            << kTrainingPoints << " points\n";
  for (std::int64_t epoch = 1; epoch <= settings.epochs; ++epoch) {
    pl::Tensor epoch_loss = pl::zeros({}, device);
    for (std::int64_t start = 0; start < kTrainingPoints; start += kBatchSize) {
      optimizer.zero_grad();
      const pl::Tensor loss = cross_entropy(model(features.narrow(0, start, kBatchSize)),
                                            targets.narrow(0, start, kBatchSize));
      loss.backward();
      optimizer.step();
      epoch_loss += loss.detach();
    }
    if (epoch == 1 || epoch == settings.epochs)
      std::printf("  epoch %3lld  loss %.4f\n", static_cast<long long>(epoch),
                  epoch_loss.item<double>() * kBatchSize / kTrainingPoints);
  }

  const double score = accuracy(model, held_out_features, held_out.labels);
  if (score < kRequiredAccuracy) {
    std::fprintf(stderr, "classifier: held-out accuracy %.1f%% is below %.0f%%\n", 100 * score,
                 100 * kRequiredAccuracy);
    return 1;
  }
  std::printf("held-out accuracy %.1f%% on %lld points reaches %.0f%%\n", 100 * score,
              static_cast<long long>(kHeldOutPoints), 100 * kRequiredAccuracy);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return examples::run_program_main("classifier", kUsage,
                                    [&] { return train(parse_settings(argc, argv)); });
}
