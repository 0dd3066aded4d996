// The weights file written by examples/training and read by
// examples/inference: named float32 tensors in a small little-endian binary
// format, specified in examples/inference/README.md.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <pl/pl.h>

namespace examples {

// A file that cannot be read or written, or is not a valid weights file;
// the message names the file and what is wrong.
class WeightsFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct NamedTensor {
  std::string name;
  pl::Tensor tensor;
};

// Writes the tensors (float32, on any device: they are copied to the host).
void save_weights(const std::string &path, const std::vector<NamedTensor> &tensors);
// Reads every tensor of the file, on the cpu.
std::vector<NamedTensor> load_weights(const std::string &path);

// The module's parameters, by their dotted names ("fc1.weight").
std::vector<NamedTensor> parameters_of(const pl::nn::Module &module);
// Copies the tensors into the module's parameters of the same names and
// shapes; every parameter must be given exactly once, nothing else.
void load_parameters(pl::nn::Module &module, const std::vector<NamedTensor> &tensors,
                     const std::string &origin);

} // namespace examples
