// Autograd's semantics: leaves and non-leaves, grad accumulation, grad
// mode, retain_grad, detach, the version counter, freed graphs,
// autograd::grad, and modules' parameters.
#include <pl/pl.h>

#include "test_support.h"

namespace {

using pl::Tensor;
using pl_test::make;
using pl_test::values;

class Autograd : public pl_test::OnDevice {
protected:
  Tensor leaf(const std::vector<double> &data, std::vector<std::int64_t> shape) const {
    Tensor t = make(data, std::move(shape), device());
    t.requires_grad_();
    return t;
  }
};

TEST_P(Autograd, FactoriesWithRequiresGradMakeLeaves) {
  const Tensor w = pl::randn({2, 3}, pl::device(device()).requires_grad(true));
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_EQ(w.device(), device());
  EXPECT_TRUE(pl::zeros({2}, pl::requires_grad()).requires_grad());
  EXPECT_FALSE(pl::zeros({2}).requires_grad());
  EXPECT_TRUE(pl::zeros({2}).is_leaf());
  EXPECT_THROW_CONTAINING(pl::arange(3, pl::requires_grad()), pl::Error,
                          "only tensors of floating point dtype can require gradients");
}

TEST_P(Autograd, OpResultsAreNonLeavesThatRequireGrad) {
  const Tensor x = leaf({1, 2, 3}, {3});
  const Tensor y = x * 2;
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  const Tensor plain = make({1, 2, 3}, {3}, device());
  EXPECT_FALSE((plain * 2).requires_grad());
  EXPECT_FALSE(x.argmax().requires_grad());
}

TEST_P(Autograd, BackwardAccumulatesIntoLeaves) {
  const Tensor x = leaf({1, 2, 3}, {3});
  (x * x).sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(2, 4, 6));
  EXPECT_EQ(x.grad().device(), device());
  (x * 3).sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(5, 7, 9));
  EXPECT_FALSE(x.grad().requires_grad());
}

TEST_P(Autograd, BackwardTakesAGradientForNonScalars) {
  const Tensor x = leaf({1, 2, 3}, {3});
  const Tensor y = x * 2;
  EXPECT_THROW_CONTAINING(y.backward(), pl::Error,
                          "grad can be implicitly created only for scalar outputs");
  y.backward(make({1, 10, 100}, {3}, device()));
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(2, 20, 200));
  EXPECT_THROW_CONTAINING(make({1}, {1}, device()).backward(), pl::Error,
                          "does not require grad and does not have a grad_fn");
}

TEST_P(Autograd, BackwardOfSeveralRootsInOnePass) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor shared = x * 2; // reached from both roots: its node runs once
  pl::autograd::backward({shared.sum(), shared * 3}, {{}, make({1, 10}, {2}, device())});
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(2 + 6, 2 + 60));
}

TEST_P(Autograd, NonLeavesHaveNoGradUnlessRetained) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = x * 3;
  const Tensor z = x * 4;
  z.retain_grad();
  EXPECT_TRUE(z.retains_grad());
  (y + z).sum().backward();
  EXPECT_FALSE(y.grad().defined());
  EXPECT_THAT(values(z.grad()), ::testing::ElementsAre(1, 1));
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(7, 7));
}

TEST_P(Autograd, NoGradGuardRecordsNothing) {
  const Tensor x = leaf({1, 2}, {2});
  {
    const pl::NoGradGuard no_grad;
    EXPECT_FALSE(pl::GradMode::is_enabled());
    const Tensor y = x * 2;
    EXPECT_FALSE(y.requires_grad());
    x.mul_(2); // optimizers update leaves in place like this
  }
  EXPECT_TRUE(pl::GradMode::is_enabled());
  EXPECT_THAT(values(x), ::testing::ElementsAre(2, 4));
  EXPECT_TRUE((x * 2).requires_grad());
}

TEST_P(Autograd, InPlaceOnALeafThatRequiresGradIsRefused) {
  const Tensor x = leaf({1, 2}, {2});
  EXPECT_THROW_CONTAINING(x.add_(1), pl::Error,
                          "add_: a leaf tensor that requires grad is being used in an in-place "
                          "operation");
  EXPECT_THROW_CONTAINING(x.zero_(), pl::Error, "fill_: a leaf tensor that requires grad");
  EXPECT_THROW_CONTAINING(x.narrow(0, 0, 1).mul_(2), pl::Error,
                          "mul_: in-place operations on a view of a tensor that requires grad");
}

TEST_P(Autograd, DetachLeavesTheGraph) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = (x * 2).detach();
  EXPECT_FALSE(y.requires_grad());
  EXPECT_TRUE(y.is_leaf());
  EXPECT_THAT(values(y), ::testing::ElementsAre(2, 4));
  const Tensor d = x.detach();
  EXPECT_EQ(d.data_ptr(), x.data_ptr()); // same data, same version counter
  EXPECT_EQ(d._version(), x._version());
}

TEST_P(Autograd, InPlaceChangeOfASavedTensorIsAnErrorAtBackward) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = x.exp();
  const Tensor loss = (y * y).sum(); // saves y
  y.add_(1);
  EXPECT_THROW_CONTAINING(loss.backward(), pl::Error,
                          "one of the variables needed for gradient computation has been "
                          "modified by an inplace operation");
}

TEST_P(Autograd, InPlaceChangeOfAnUnsavedTensorIsFine) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = x * 2;
  y.add_(1); // nothing saved y
  (y * 3).sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(6, 6));
}

TEST_P(Autograd, AGraphRunsOnceUnlessRetained) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor loss = (x * x).sum();
  loss.backward({}, /*retain_graph=*/true);
  loss.backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(4, 8));
  EXPECT_THROW_CONTAINING(loss.backward(), pl::Error,
                          "trying to backward through the graph a second time");
}

TEST_P(Autograd, GradReturnsGradientsWithoutAccumulating) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = leaf({3, 4}, {2});
  const Tensor unused = leaf({0}, {1});
  const Tensor loss = (x * y).sum();
  const auto grads = pl::autograd::grad({loss}, {x, y}, {}, true);
  EXPECT_THAT(values(grads[0]), ::testing::ElementsAre(3, 4));
  EXPECT_THAT(values(grads[1]), ::testing::ElementsAre(1, 2));
  EXPECT_FALSE(x.grad().defined());
  EXPECT_THROW_CONTAINING(pl::autograd::grad({loss}, {unused}, {}, true), pl::Error,
                          "input 0 was not used in the graph of the outputs");
  const auto none = pl::autograd::grad({loss}, {unused}, {}, true, false, true);
  EXPECT_FALSE(none[0].defined());
}

TEST_P(Autograd, GradOfANonLeafInput) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor h = x * 2;
  const auto grads = pl::autograd::grad({(h * h).sum()}, {h});
  EXPECT_THAT(values(grads[0]), ::testing::ElementsAre(4, 8));
}

TEST_P(Autograd, AScalarCpuTensorJoinsAndGetsItsGradientOnTheCpu) {
  Tensor scale = pl::tensor(3.0, pl::TensorOptions(pl::kCPU).dtype(pl::kDouble));
  scale.requires_grad_();
  const Tensor x = leaf({1, 2}, {2}).to(pl::kDouble);
  (x * scale).sum().backward();
  ASSERT_TRUE(scale.grad().defined());
  EXPECT_TRUE(scale.grad().is_cpu());
  EXPECT_DOUBLE_EQ(scale.grad().item<double>(), 3.0);
}

TEST_P(Autograd, ADtypeConversionSendsTheGradientBackInTheSourceDtype) {
  const Tensor x = leaf({1, 2}, {2}); // float
  (x.to(pl::kDouble) * 2).sum().backward();
  EXPECT_EQ(x.grad().dtype(), pl::kFloat);
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(2, 2));
}

TEST_P(Autograd, InPlaceOpsThatPromoteKeepEachInputsDtype) {
  const Tensor x = leaf({1, 2}, {2}); // float
  Tensor y = make({3, 4}, {2}, device(), pl::kDouble);
  y.requires_grad_();
  const Tensor z = x * 1;
  z.mul_(y); // computed in double, written back as float
  z.sum().backward();
  EXPECT_EQ(x.grad().dtype(), pl::kFloat);
  EXPECT_EQ(y.grad().dtype(), pl::kDouble);
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(3, 4));
  EXPECT_THAT(values(y.grad()), ::testing::ElementsAre(1, 2));
}

TEST_P(Autograd, MovingALeafMakesANonLeafWhoseGradStaysUndefined) {
  const pl::Device other = device().is_cpu() ? pl::Device("sim:0") : pl::Device(pl::kCPU);
  const Tensor w = pl::randn({2, 2}, pl::requires_grad()).to(device());
  EXPECT_EQ(w.is_leaf(), device().is_cpu()); // to() of the same device is the tensor itself
  const Tensor moved = w.detach().requires_grad_().to(other);
  EXPECT_FALSE(moved.is_leaf());
  (moved * 2).sum().backward();
  EXPECT_FALSE(moved.grad().defined());
}

TEST_P(Autograd, ModuleParametersAreLeavesThatStayLeavesWhenMoved) {
  pl::nn::Linear layer(3, 2);
  for (const Tensor &parameter : layer->parameters()) {
    EXPECT_TRUE(parameter.requires_grad());
    EXPECT_TRUE(parameter.is_leaf());
  }
  layer(pl::ones({4, 3})).sum().backward();
  ASSERT_TRUE(layer->weight.grad().defined());
  layer->to(device());
  for (const Tensor &parameter : layer->parameters()) {
    EXPECT_TRUE(parameter.is_leaf());
    EXPECT_EQ(parameter.device(), device());
    EXPECT_EQ(parameter.grad().device(), device()); // the gradient moved with it
  }
  layer->zero_grad(/*set_to_none=*/false);
  EXPECT_THAT(values(layer->bias.grad()), ::testing::Each(0.0));
  layer(pl::ones({4, 3}, pl::device(device()))).sum().backward();
  EXPECT_THAT(values(layer->bias.grad()), ::testing::Each(4.0));
  layer->zero_grad();
  EXPECT_FALSE(layer->weight.grad().defined());
}

TEST_P(Autograd, ParametersRegisteredWithoutGrad) {
  struct Frozen : pl::nn::Module {
    Frozen() { scale = register_parameter("scale", pl::ones({2}), /*requires_grad=*/false); }
    Tensor scale;
  };
  const Frozen frozen;
  EXPECT_FALSE(frozen.scale.requires_grad());
}

INSTANTIATE_TEST_SUITE_P(Devices, Autograd, ::testing::ValuesIn(pl_test::devices()),
                         pl_test::device_name);

} // namespace
