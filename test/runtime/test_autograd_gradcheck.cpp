// Every differentiable op against finite differences, in double precision,
// on every device (cuda where present).
#include <pl/pl.h>

#include "gradcheck.h"

namespace {

using pl::Tensor;
using pl_test::gradcheck;
using pl_test::GradcheckInput;
using pl_test::sample;
using Inputs = std::vector<Tensor>;

GradcheckInput input(std::vector<std::int64_t> shape, double low = -2.0, double high = 2.0,
                     unsigned seed = 3) {
  return {sample(pl_test::count_of(shape), low, high, seed), std::move(shape)};
}

// Values away from 0 (relu's kink, log's pole, division).
GradcheckInput positive(std::vector<std::int64_t> shape, unsigned seed = 5) {
  return input(std::move(shape), 0.5, 2.0, seed);
}

GradcheckInput signed_away_from_zero(std::vector<std::int64_t> shape, unsigned seed = 9) {
  GradcheckInput in = input(std::move(shape), 0.2, 2.0, seed);
  for (std::size_t i = 0; i < in.values.size(); i += 2)
    in.values[i] = -in.values[i];
  return in;
}

class Gradcheck : public pl_test::OnDevice {};

TEST_P(Gradcheck, BinaryOpsWithBroadcasting) {
  const auto a = input({2, 1, 3});
  const auto b = positive({4, 1});
  gradcheck([](const Inputs &x) { return x[0] + x[1]; }, {a, b}, device());
  gradcheck([](const Inputs &x) { return x[0] - x[1]; }, {a, b}, device());
  gradcheck([](const Inputs &x) { return x[0] * x[1]; }, {a, b}, device());
  gradcheck([](const Inputs &x) { return x[0] / x[1]; }, {a, b}, device());
  gradcheck([](const Inputs &x) { return x[0] * x[0]; }, {a}, device());
}

TEST_P(Gradcheck, OpsWithScalars) {
  const auto a = positive({3, 2});
  gradcheck([](const Inputs &x) { return x[0] + 2; }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0] - 2; }, {a}, device());
  gradcheck([](const Inputs &x) { return 2 - x[0]; }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0] * 3; }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0] / 3; }, {a}, device());
  gradcheck([](const Inputs &x) { return 3 / x[0]; }, {a}, device());
}

TEST_P(Gradcheck, UnaryOps) {
  gradcheck([](const Inputs &x) { return x[0].relu(); }, {signed_away_from_zero({3, 4})}, device());
  gradcheck([](const Inputs &x) { return x[0].exp(); }, {input({3, 4})}, device());
  gradcheck([](const Inputs &x) { return x[0].log(); }, {positive({3, 4})}, device());
  gradcheck([](const Inputs &x) { return x[0].sqrt(); }, {positive({3, 4})}, device());
  gradcheck([](const Inputs &x) { return -x[0]; }, {input({3, 4})}, device());
}

TEST_P(Gradcheck, InPlaceOpsOnNonLeaves) {
  const auto a = positive({2, 3});
  const auto b = positive({3}, 8);
  gradcheck([](const Inputs &x) { return (x[0] * 1).add_(x[1]); }, {a, b}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).sub_(x[1]); }, {a, b}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).mul_(x[1]); }, {a, b}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).div_(x[1]); }, {a, b}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).add_(2).mul_(3).div_(4).sub_(1); }, {a},
            device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).exp_(); }, {a}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).log_(); }, {a}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).sqrt_(); }, {a}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).neg_(); }, {a}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).relu_(); }, {signed_away_from_zero({2, 3})},
            device());
  // Only the operand requires grad: the plain tensor written in place joins
  // the graph.
  gradcheck(
      [&](const Inputs &x) {
        Tensor buffer = pl::ones({2, 3}, pl::TensorOptions(x[0].device()).dtype(pl::kDouble));
        return buffer.mul_(x[0]);
      },
      {a}, device());
  gradcheck(
      [&](const Inputs &x) {
        Tensor buffer = pl::zeros({2, 3}, pl::TensorOptions(x[0].device()).dtype(pl::kDouble));
        buffer.copy_(x[0] * 2);
        return buffer;
      },
      {a}, device());
  gradcheck([](const Inputs &x) { return (x[0] * 1).fill_(3) + x[0]; }, {a}, device());
}

TEST_P(Gradcheck, Reductions) {
  const auto a = input({2, 3, 4});
  gradcheck([](const Inputs &x) { return x[0].sum(); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].sum({1}); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].sum({0, -1}, true); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].mean(); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].mean({2}, true); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].max(); }, {a}, device());
  gradcheck([](const Inputs &x) { return std::get<0>(x[0].max(1)); }, {a}, device());
  gradcheck([](const Inputs &x) { return std::get<0>(x[0].max(-1, true)); }, {a}, device());
}

TEST_P(Gradcheck, MatrixProducts) {
  gradcheck([](const Inputs &x) { return x[0].matmul(x[1]); },
            {input({3, 4}), input({4, 2}, -1, 1, 4)}, device());
  gradcheck([](const Inputs &x) { return x[0].mm(x[1]); }, {input({3, 4}), input({4, 2}, -1, 1, 4)},
            device());
  gradcheck([](const Inputs &x) { return x[0].matmul(x[1]); },
            {input({4}), input({4, 2}, -1, 1, 4)}, device());
  gradcheck([](const Inputs &x) { return x[0].matmul(x[1]); },
            {input({3, 4}), input({4}, -1, 1, 4)}, device());
  gradcheck([](const Inputs &x) { return x[0].matmul(x[1]); }, {input({4}), input({4}, -1, 1, 4)},
            device());
  gradcheck([](const Inputs &x) { return x[0].matmul(x[1]); },
            {input({2, 3, 4}), input({4, 2}, -1, 1, 4)}, device());
  gradcheck([](const Inputs &x) { return x[0].t().matmul(x[1]); },
            {input({4, 3}), input({4, 2}, -1, 1, 4)}, device());
}

TEST_P(Gradcheck, Linear) {
  gradcheck([](const Inputs &x) { return pl::linear(x[0], x[1], x[2]); },
            {input({5, 3}), input({2, 3}, -1, 1, 4), input({2}, -1, 1, 6)}, device());
  gradcheck([](const Inputs &x) { return pl::linear(x[0], x[1]); },
            {input({2, 5, 3}), input({2, 3}, -1, 1, 4)}, device());
}

TEST_P(Gradcheck, Views) {
  const auto a = input({2, 3, 4});
  gradcheck([](const Inputs &x) { return x[0].view({6, 4}); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].reshape({4, -1}); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].transpose(0, 2).reshape({-1}); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].narrow(2, 1, 2); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].select(1, 2); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].unsqueeze(1).squeeze(1); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].flatten(1); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].select(0, 1).t() * 2; }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].transpose(1, 2).contiguous(); }, {a}, device());
  gradcheck([](const Inputs &x) { return x[0].clone(); }, {a}, device());
}

TEST_P(Gradcheck, CatAndStack) {
  const auto a = input({2, 3});
  const auto b = input({2, 1}, -1, 1, 4);
  const auto c = input({2, 3}, -1, 1, 6);
  gradcheck([](const Inputs &x) { return pl::cat({x[0], x[1]}, 1); }, {a, b}, device());
  gradcheck([](const Inputs &x) { return pl::stack({x[0], x[1]}, 1); }, {a, c}, device());
  gradcheck([](const Inputs &x) { return pl::cat({x[0], x[0] * 2}, 0); }, {a}, device());
}

TEST_P(Gradcheck, TransfersSendTheGradientBackToTheSourceDevice) {
  // The inputs live on this device; the computation on the other one.
  const pl::Device other = device().is_cpu() ? pl::Device("sim:0") : pl::Device(pl::kCPU);
  const auto a = input({2, 3});
  gradcheck([&](const Inputs &x) { return (x[0].to(other) * 2).exp(); }, {a}, device());
  gradcheck([&](const Inputs &x) { return x[0].to(other).cpu() * 3; }, {a}, device());
  gradcheck(
      [&](const Inputs &x) {
        Tensor there = pl::zeros({2, 3}, pl::TensorOptions(other).dtype(pl::kDouble));
        there.copy_(x[0]);
        return there * there;
      },
      {a}, device());
}

TEST_P(Gradcheck, AModel) {
  gradcheck(
      [](const Inputs &x) {
        const Tensor hidden = pl::linear(x[0], x[1], x[2]).relu();
        return (hidden.matmul(x[3]) - 1).exp().mean({1});
      },
      {input({4, 3}), input({5, 3}, -1, 1, 4), input({5}, -1, 1, 6), input({5, 2}, -1, 1, 8)},
      device());
}

INSTANTIATE_TEST_SUITE_P(Devices, Gradcheck, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
