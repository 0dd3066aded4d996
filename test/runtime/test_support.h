// Shared helpers for the runtime tests: the devices every suite runs on, and
// host-side views of tensor values for reference comparisons.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pl/pl.h>

namespace pl_test {

// Suites parameterized over the device run on cpu, on the simulated
// accelerator, and on cuda:0 wherever a GPU is available (the test list is
// discovered by running the binary, so a GPU machine lists the cuda_0 cases).
inline std::vector<pl::Device> devices() {
  std::vector<pl::Device> all{pl::Device("cpu"), pl::Device("sim:0")};
  if (pl::cuda::is_available())
    all.emplace_back("cuda:0");
  return all;
}

inline std::string device_name(const ::testing::TestParamInfo<pl::Device> &info) {
  std::string name = info.param.str();
  for (char &c : name)
    if (c == ':')
      c = '_';
  return name;
}

class OnDevice : public ::testing::TestWithParam<pl::Device> {
protected:
  pl::Device device() const { return GetParam(); }
};

// The values of t in row-major order, as doubles (read on the host).
inline std::vector<double> values(const pl::Tensor &t) {
  const pl::Tensor host = t.cpu().contiguous().to(pl::kDouble);
  const double *data = host.data_ptr<double>();
  return std::vector<double>(data, data + host.numel());
}

inline std::vector<std::int64_t> long_values(const pl::Tensor &t) {
  const pl::Tensor host = t.cpu().contiguous().to(pl::kLong);
  const std::int64_t *data = host.data_ptr<std::int64_t>();
  return std::vector<std::int64_t>(data, data + host.numel());
}

inline std::vector<std::int64_t> sizes(const pl::Tensor &t) { return t.sizes().vec(); }

// A tensor on `device` holding `data` (row-major) with the given sizes.
inline pl::Tensor make(const std::vector<double> &data, std::vector<std::int64_t> shape,
                       pl::Device device, pl::ScalarType dtype = pl::kFloat) {
  return pl::tensor(data, pl::TensorOptions(device).dtype(dtype)).view(shape);
}

// Row-major index of `index` in `shape`, where size-1 dims of a broadcast
// operand (shape right-aligned into out_shape) read element 0.
inline std::int64_t broadcast_index(const std::vector<std::int64_t> &out_index,
                                    const std::vector<std::int64_t> &shape) {
  const std::size_t lead = out_index.size() - shape.size();
  std::int64_t linear = 0;
  for (std::size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + (shape[d] == 1 ? 0 : out_index[lead + d]);
  return linear;
}

inline std::vector<std::int64_t> unravel(std::int64_t linear,
                                         const std::vector<std::int64_t> &shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

// Runs `statement` expecting ErrorType whose what() equals `message`.
#define EXPECT_THROW_MESSAGE(statement, ErrorType, message)                                        \
  EXPECT_THAT([&] { (void)(statement); },                                                          \
              ::testing::ThrowsMessage<ErrorType>(::testing::StrEq(message)))

// ... whose what() contains `fragment`.
#define EXPECT_THROW_CONTAINING(statement, ErrorType, fragment)                                    \
  EXPECT_THAT([&] { (void)(statement); },                                                          \
              ::testing::ThrowsMessage<ErrorType>(::testing::HasSubstr(fragment)))

} // namespace pl_test
