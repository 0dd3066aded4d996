// pl::optim against updates computed by hand, the device checks of step(),
// and placement-non-leaf-parameter (grad() and optimizers under the
// transfer guard).
#include <cmath>

#include <pl/pl.h>

#include "test_support.h"

namespace {

using pl::Tensor;
using pl_test::make;
using pl_test::values;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class Optim : public pl_test::OnDevice {
protected:
  // A parameter with a gradient set by hand.
  Tensor parameter(std::vector<double> data, std::vector<double> grad) const {
    Tensor p = make(data, {static_cast<std::int64_t>(data.size())}, device(), pl::kDouble);
    p.requires_grad_();
    set_grad(p, std::move(grad));
    return p;
  }
  void set_grad(const Tensor &p, std::vector<double> grad) const {
    p.mutable_grad() = make(grad, {static_cast<std::int64_t>(grad.size())}, device(), pl::kDouble);
  }
};

TEST_P(Optim, SgdStepsAlongTheGradient) {
  const Tensor p = parameter({1.0, -2.0}, {0.5, 1.0});
  pl::optim::SGD sgd({p}, pl::optim::SGDOptions(0.1));
  sgd.step();
  EXPECT_THAT(values(p), ElementsAre(DoubleNear(0.95, 1e-12), DoubleNear(-2.1, 1e-12)));
  EXPECT_TRUE(p.is_leaf());
}

TEST_P(Optim, SgdWithMomentumDampeningAndWeightDecay) {
  const Tensor p = parameter({1.0}, {0.5});
  pl::optim::SGD sgd({p},
                     pl::optim::SGDOptions(0.1).momentum(0.9).dampening(0.5).weight_decay(0.01));
  EXPECT_DOUBLE_EQ(sgd.options().momentum(), 0.9);
  // Step 1: d = g + wd p = 0.51; buffer = d; p = 1 - 0.1 * 0.51 = 0.949.
  sgd.step();
  // Step 2: g = 0.2, d = 0.2 + 0.01 * 0.949 = 0.20949;
  // buffer = 0.9 * 0.51 + 0.5 * 0.20949 = 0.563745; p = 0.949 - 0.0563745.
  set_grad(p, {0.2});
  sgd.step();
  EXPECT_THAT(values(p), ElementsAre(DoubleNear(0.949 - 0.0563745, 1e-12)));
}

TEST_P(Optim, SgdWithNesterovMomentum) {
  const Tensor p = parameter({1.0}, {0.5});
  pl::optim::SGD sgd({p}, pl::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  sgd.step(); // buffer = 0.5; d = 0.5 + 0.9 * 0.5 = 0.95
  EXPECT_THAT(values(p), ElementsAre(DoubleNear(1 - 0.095, 1e-12)));
  EXPECT_THROW_CONTAINING(pl::optim::SGD({p}, pl::optim::SGDOptions(0.1).nesterov(true)), pl::Error,
                          "Nesterov momentum requires a momentum");
}

// Adam's update for one scalar parameter over the given gradients.
double adam_reference(double p, const std::vector<double> &grads, double lr, double beta1,
                      double beta2, double eps, double weight_decay, bool decoupled) {
  double m = 0, v = 0;
  for (std::size_t t = 1; t <= grads.size(); ++t) {
    double g = grads[t - 1];
    if (decoupled)
      p *= 1 - lr * weight_decay;
    else
      g += weight_decay * p;
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g * g;
    const double bc1 = 1 - std::pow(beta1, static_cast<double>(t));
    const double bc2 = 1 - std::pow(beta2, static_cast<double>(t));
    p -= lr / bc1 * m / (std::sqrt(v) / std::sqrt(bc2) + eps);
  }
  return p;
}

TEST_P(Optim, AdamMatchesTheReferenceUpdate) {
  const Tensor p = parameter({1.0, -0.5}, {0.3, -0.7});
  pl::optim::Adam adam({p}, pl::optim::AdamOptions(0.01).betas({0.8, 0.99}).weight_decay(0.1));
  adam.step();
  set_grad(p, {-0.2, 0.4});
  adam.step();
  EXPECT_THAT(
      values(p),
      ElementsAre(
          DoubleNear(adam_reference(1.0, {0.3, -0.2}, 0.01, 0.8, 0.99, 1e-8, 0.1, false), 1e-12),
          DoubleNear(adam_reference(-0.5, {-0.7, 0.4}, 0.01, 0.8, 0.99, 1e-8, 0.1, false), 1e-12)));
}

TEST_P(Optim, AdamWDecaysTheWeightsDirectly) {
  const Tensor p = parameter({2.0}, {0.3});
  pl::optim::AdamW adamw({p}, pl::optim::AdamWOptions(0.05));
  EXPECT_DOUBLE_EQ(adamw.options().weight_decay(), 1e-2);
  adamw.step();
  set_grad(p, {0.1});
  adamw.step();
  EXPECT_THAT(values(p),
              ElementsAre(DoubleNear(
                  adam_reference(2.0, {0.3, 0.1}, 0.05, 0.9, 0.999, 1e-8, 1e-2, true), 1e-12)));
  EXPECT_THROW_CONTAINING(pl::optim::Adam({p}, pl::optim::AdamOptions().amsgrad(true)), pl::Error,
                          "amsgrad is not supported");
}

TEST_P(Optim, ZeroGradAndParametersWithoutGradients) {
  const Tensor p = parameter({1.0}, {0.5});
  Tensor q = make({3.0}, {1}, device(), pl::kDouble);
  q.requires_grad_();
  pl::optim::SGD sgd({p, q}, 0.1);
  sgd.step(); // q has no gradient: untouched
  EXPECT_THAT(values(q), ElementsAre(3.0));
  sgd.zero_grad(false);
  EXPECT_THAT(values(p.grad()), ElementsAre(0.0));
  sgd.zero_grad();
  EXPECT_FALSE(p.grad().defined());
}

TEST_P(Optim, StepChecksGradientsAreOnTheParametersDevice) {
  const pl::Device other = device().is_cpu() ? pl::Device("sim:0") : pl::Device(pl::kCPU);
  const Tensor p = parameter({1.0}, {0.5});
  const Tensor q = parameter({1.0}, {0.5});
  pl::optim::SGD sgd({p, q}, 0.1);
  q.mutable_grad() = q.grad().to(other);
  EXPECT_THROW_MESSAGE(sgd.step(), pl::DeviceMismatchError,
                       "placement-mixed-device: SGD::step: expected all tensors on the same "
                       "device, but 'parameters[1]' is on " +
                           device().str() + " and 'parameters[1].grad' is on " + other.str());
}

TEST_P(Optim, StepChecksStateIsOnTheParametersDevice) {
  const pl::Device other = device().is_cpu() ? pl::Device("sim:0") : pl::Device(pl::kCPU);
  pl::nn::Linear layer(2, 1);
  layer->to(device());
  pl::optim::Adam adam(layer->parameters());
  layer(pl::ones({3, 2}, pl::device(device()))).sum().backward();
  adam.step(); // state made on the parameters' device
  // The model moves in place after the optimizer made its state.
  layer->to(other);
  EXPECT_THROW_MESSAGE(adam.step(), pl::DeviceMismatchError,
                       "placement-mixed-device: Adam::step: expected all tensors on the same "
                       "device, but 'parameters[0]' is on " +
                           other.str() + " and 'parameters[0].exp_avg' is on " + device().str());
}

TEST_P(Optim, TrainsALinearModel) {
  pl::manual_seed(3);
  pl::nn::Linear layer(3, 1);
  layer->to(device());
  const Tensor x = pl::randn({32, 3}, pl::device(device()));
  const Tensor y = x.matmul(make({1.0, -2.0, 0.5}, {3, 1}, device())) + 0.3;
  pl::optim::SGD sgd(layer->parameters(), pl::optim::SGDOptions(0.1).momentum(0.5));
  double first = 0, last = 0;
  for (int step = 0; step < 100; ++step) {
    sgd.zero_grad();
    const Tensor error = layer(x) - y;
    const Tensor loss = (error * error).mean();
    loss.backward();
    sgd.step();
    (step == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first * 1e-3);
}

// placement-non-leaf-parameter: only a move (to another device) makes the
// non-leaf; the sim device shows it.
class NonLeafParameter : public ::testing::Test {
protected:
  void SetUp() override { pl::clear_transfer_guard_history(); }
};

TEST_F(NonLeafParameter, ReadingGradOfAMovedLeafIsReportedNamingTheMove) {
  const pl::TransferGuard guard(pl::TransferGuardLevel::Disallow);
  const Tensor w = (pl::randn({2, 2}) * 0.1).requires_grad_().to("sim:0");
  const int move_line = __LINE__ - 1;
  (w * 2).sum().backward();
  EXPECT_THAT([&] { (void)w.grad(); },
              ::testing::ThrowsMessage<pl::TransferGuardError>(::testing::AllOf(
                  ::testing::StartsWith("placement-non-leaf-parameter: grad: the tensor is the "
                                        "copy that moving a tensor which requires grad from cpu "
                                        "to sim:0 made at "),
                  HasSubstr("test_optim.cpp:" + std::to_string(move_line) + ";"))));
}

TEST_F(NonLeafParameter, AnOptimizerGivenAMovedLeafIsReportedNamingItsIndex) {
  const pl::TransferGuard guard(pl::TransferGuardLevel::Disallow);
  const Tensor good = pl::zeros({2}, pl::device("sim:0").requires_grad(true));
  const Tensor moved = pl::ones({2}).mul(2).requires_grad_().to("sim:0");
  const int move_line = __LINE__ - 1;
  EXPECT_THAT(
      [&] {
        pl::optim::SGD sgd({good, moved}, 0.1);
      },
      ::testing::ThrowsMessage<pl::TransferGuardError>(::testing::AllOf(
          ::testing::StartsWith("placement-non-leaf-parameter: SGD: parameters[1] is the "
                                "copy"),
          HasSubstr("test_optim.cpp:" + std::to_string(move_line) + ";"))));
  pl::optim::SGD fine({good}, 0.1);
  EXPECT_EQ(fine.size(), 1u);
}

TEST_F(NonLeafParameter, LoggedOncePerMoveUnderLog) {
  const pl::TransferGuard guard(pl::TransferGuardLevel::Log);
  const Tensor w = pl::ones({2}).mul(2).requires_grad_().to("sim:0");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(w.grad().defined());
  EXPECT_FALSE(w.grad().defined());
  const std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(logged.find("placement-non-leaf-parameter: grad: "), 0u) << logged;
  EXPECT_EQ(logged.find("placement-non-leaf-parameter", 1), std::string::npos) << logged;
}

TEST_F(NonLeafParameter, NotReportedForLeavesRetainedGradsOrUnderAllow) {
  {
    const pl::TransferGuard guard(pl::TransferGuardLevel::Disallow);
    const Tensor leaf = pl::zeros({2}, pl::device("sim:0").requires_grad(true));
    EXPECT_FALSE(leaf.grad().defined());
    const Tensor retained = pl::ones({2}).mul(2).requires_grad_().to("sim:0");
    retained.retain_grad();
    retained.sum().backward();
    EXPECT_TRUE(retained.grad().defined());
    const Tensor product = leaf * 2; // a non-leaf, but not a moved leaf
    EXPECT_FALSE(product.grad().defined());
  }
  const pl::TransferGuard allow(pl::TransferGuardLevel::Allow);
  const Tensor moved = pl::ones({2}).mul(2).requires_grad_().to("sim:0");
  EXPECT_FALSE(moved.grad().defined());
}

INSTANTIATE_TEST_SUITE_P(Devices, Optim, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
