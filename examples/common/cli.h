// Command-line parsing shared by the training and inference examples:
// `--name value` options, and values checked with a message that says which
// option and what was expected.
#pragma once

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <pl/pl.h>

namespace examples {

// A bad command line; main prints it with the usage and exits with 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

inline std::int64_t parse_positive(std::string_view option, std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0)
    throw UsageError(std::string(option) + " expects a positive integer, got '" +
                     std::string(text) + "'");
  return value;
}

inline double parse_positive_real(std::string_view option, std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !(value > 0))
    throw UsageError(std::string(option) + " expects a positive number, got '" +
                     std::string(text) + "'");
  return value;
}

// The device to run on: DEVICE when given (cpu, sim, sim:1, cuda, cuda:0,
// ...), else cuda when a GPU is available and cpu otherwise. A CUDA device
// that is not there is a usage error here rather than a failure later.
inline pl::Device choose_device(const std::string &requested) {
  if (requested.empty())
    return pl::cuda::is_available() ? pl::Device(pl::kCUDA) : pl::Device(pl::kCPU);
  pl::Device device(pl::kCPU);
  try {
    device = pl::Device(requested);
  } catch (const pl::DeviceError &error) {
    throw UsageError(std::string("--device: ") + error.what());
  }
  if (device.is_cuda() && !pl::cuda::is_available())
    throw UsageError("--device " + requested + ": no CUDA device is available here");
  return device;
}

// Iterates over `--name value` pairs (and `--help`, which takes no value):
// next() returns false at the end.
class OptionReader {
public:
  OptionReader(int argc, char **argv) : argc_(argc), argv_(argv) {}

  bool next() {
    if (index_ >= argc_)
      return false;
    name_ = argv_[index_];
    if (name_.substr(0, 2) != "--")
      throw UsageError("unexpected argument '" + std::string(name_) + "'");
    if (name_ == "--help") {
      value_ = {};
      index_ += 1;
      return true;
    }
    if (index_ + 1 >= argc_)
      throw UsageError(std::string(name_) + " needs a value");
    value_ = argv_[index_ + 1];
    index_ += 2;
    return true;
  }
  std::string_view name() const { return name_; }
  std::string_view value() const { return value_; }

private:
  int argc_;
  char **argv_;
  int index_ = 1;
  std::string_view name_;
  std::string_view value_;
};

} // namespace examples
