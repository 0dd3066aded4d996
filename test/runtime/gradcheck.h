// gradcheck: the gradients autograd computes for f, compared with central
// finite differences, in double precision, on one device (like
// torch.autograd.gradcheck, through a random projection of f's output).
#pragma once

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "test_support.h"

namespace pl_test {

struct GradcheckInput {
  std::vector<double> values;
  std::vector<std::int64_t> shape;
};

using Function = std::function<pl::Tensor(const std::vector<pl::Tensor> &)>;

inline pl::Tensor double_tensor(const std::vector<double> &values,
                                const std::vector<std::int64_t> &shape, pl::Device device) {
  return pl::tensor(values, pl::TensorOptions(device).dtype(pl::kDouble)).reshape(shape);
}

// Values in (low, high), away from 0 when `low` is: no ties, no kinks.
inline std::vector<double> sample(std::int64_t count, double low, double high, unsigned seed = 7) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  std::vector<double> values(static_cast<std::size_t>(count));
  for (double &value : values)
    value = uniform(generator);
  return values;
}

inline std::int64_t count_of(const std::vector<std::int64_t> &shape) {
  std::int64_t count = 1;
  for (std::int64_t size : shape)
    count *= size;
  return count;
}

// Checks every input's gradient element by element.
inline void gradcheck(const Function &f, const std::vector<GradcheckInput> &inputs,
                      pl::Device device, double tolerance = 1e-6) {
  std::vector<pl::Tensor> leaves;
  for (const GradcheckInput &input : inputs) {
    pl::Tensor leaf = double_tensor(input.values, input.shape, device);
    leaf.requires_grad_();
    leaves.push_back(leaf);
  }
  const pl::Tensor out = f(leaves);
  ASSERT_TRUE(out.requires_grad());
  const std::vector<double> projection = sample(out.numel(), -1.0, 1.0, 11);
  const pl::Tensor weights = double_tensor(projection, out.sizes().vec(), out.device());
  const auto objective = [&](const pl::Tensor &result) { return (result * weights).sum(); };
  const std::vector<pl::Tensor> analytic = pl::autograd::grad({objective(out)}, leaves);

  const double step = 1e-6;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_TRUE(analytic[i].defined()) << "input " << i;
    EXPECT_EQ(analytic[i].device(), device) << "input " << i;
    EXPECT_EQ(sizes(analytic[i]), inputs[i].shape) << "input " << i;
    const std::vector<double> computed = values(analytic[i]);
    for (std::size_t j = 0; j < inputs[i].values.size(); ++j) {
      const auto evaluate = [&](double delta) {
        std::vector<pl::Tensor> plain;
        for (std::size_t k = 0; k < inputs.size(); ++k) {
          std::vector<double> perturbed = inputs[k].values;
          if (k == i)
            perturbed[j] += delta;
          plain.push_back(double_tensor(perturbed, inputs[k].shape, device));
        }
        return objective(f(plain)).item<double>();
      };
      const double numeric = (evaluate(step) - evaluate(-step)) / (2 * step);
      EXPECT_NEAR(computed[j], numeric, tolerance * std::max(1.0, std::abs(numeric)))
          << "input " << i << ", element " << j;
    }
  }
}

} // namespace pl_test
