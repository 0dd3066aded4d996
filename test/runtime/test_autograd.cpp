// Autograd's semantics: leaves and non-leaves, grad accumulation, grad
// mode, retain_grad, detach, the version counter, freed graphs,
// autograd::grad, and modules' parameters.
#include <limits>

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

TEST_P(Autograd, AViewMadeWithoutGradIsNotWrittenInGradMode) {
  const Tensor x = leaf({1, 2, 3}, {3});
  Tensor v, w;
  {
    const pl::NoGradGuard no_grad;
    v = x.narrow(0, 0, 2);
    v.mul_(2); // still in no_grad mode: an optimizer's update
  }
  w = v.narrow(0, 0, 1); // a view of it, in grad mode
  const char *message = "a view of a tensor that requires grad was made in no_grad mode and is "
                        "being modified in place with grad mode enabled";
  EXPECT_THROW_CONTAINING(v.mul_(2), pl::Error, message);
  EXPECT_THROW_CONTAINING(w.zero_(), pl::Error, message);
  EXPECT_THAT(values(x), ::testing::ElementsAre(2, 4, 3));
}

TEST_P(Autograd, WritingATensorThatRequiresGradIntoAViewOfAPlainTensorIsRefused) {
  // PyTorch gives buffer the history (x.grad [1, 1]); pl refuses rather
  // than let x's gradient through buffer silently vanish.
  const Tensor x = leaf({1, 2}, {2});
  const Tensor buffer = pl::zeros({3}, pl::device(device()));
  const char *message = "writing a tensor that requires grad into a tensor that does not, and "
                        "that shares its storage with another tensor";
  EXPECT_THROW_CONTAINING(buffer.narrow(0, 0, 2).copy_(x), pl::Error, message);
  EXPECT_THROW_CONTAINING(buffer.narrow(0, 1, 2).add_(x), pl::Error, message);
  EXPECT_THAT(values(buffer), ::testing::ElementsAre(0, 0, 0)); // refused before the write
  const Tensor own = pl::zeros({2}, pl::device(device()));
  own.copy_(x); // a tensor of its own takes the history
  (own * 3).sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(3, 3));
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

TEST_P(Autograd, AViewIsRefusedAfterAnInPlaceOpOnItsBase) {
  // PyTorch rebases v onto y's new history (x.grad [6, 6, 0]); pl refuses
  // rather than give the gradient of the old y ([2, 2, 0]).
  const Tensor x = leaf({1, 2, 3}, {3});
  const Tensor y = x * 2;
  const Tensor v = y.narrow(0, 0, 2);
  const Tensor w = v.narrow(0, 0, 1); // a view of a view has y as its base too
  y.mul_(3);
  const char *message = "a view of a tensor that requires grad is used after its base was "
                        "modified by an in-place operation";
  EXPECT_THROW_CONTAINING(v.sum(), pl::Error, message);
  EXPECT_THROW_CONTAINING(v.backward(make({1, 1}, {2}, device())), pl::Error, message);
  EXPECT_THROW_CONTAINING(w * 2, pl::Error, message);
  y.narrow(0, 0, 2).sum().backward(); // a view made after the write sees it
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(6, 6, 0));
}

TEST_P(Autograd, AViewUsedBeforeAnInPlaceOpOnItsBaseKeepsItsGradient) {
  const Tensor x = leaf({1, 2, 3}, {3});
  const Tensor y = x * 2;
  const Tensor twice_v = y.narrow(0, 0, 2) * 2;
  y.mul_(3);
  twice_v.sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(4, 4, 0));
}

TEST_P(Autograd, AViewOfALeafStaysUsableAfterAnUpdateWithoutGrad) {
  const Tensor x = leaf({1, 2, 3}, {3});
  const Tensor v = x.narrow(0, 0, 2);
  {
    const pl::NoGradGuard no_grad;
    x.mul_(2); // as an optimizer step does: no new history
  }
  (v * v).sum().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(4, 8, 0));
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

TEST_P(Autograd, GradRunsOnlyThePartOfTheGraphAboveItsInputs) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = x.exp(); // saves y
  const Tensor h = y * 2;
  y.add_(1); // below h: grad() of h need not run ExpBackward
  const auto grads = pl::autograd::grad({h.sum()}, {h});
  EXPECT_THAT(values(grads[0]), ::testing::ElementsAre(1, 1));
}

TEST_P(Autograd, GradLeavesThePartOfTheGraphBelowItsInputsForBackward) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor h = x * x; // its saved x must survive grad()
  const Tensor loss = (h * 3).sum();
  const auto grads = pl::autograd::grad({loss}, {h});
  EXPECT_THAT(values(grads[0]), ::testing::ElementsAre(3, 3));
  EXPECT_FALSE(x.grad().defined());
  loss.backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(6, 12));
}

TEST_P(Autograd, MatmulAndLinearSaveOnlyWhatTheGradientsNeed) {
  const Tensor w = make({1, 2, 3, 4}, {2, 2}, device()); // needs no gradient
  const Tensor x = leaf({1, 2}, {1, 2});
  const Tensor h = x * 1;
  const Tensor product = h.matmul(w);
  const Tensor linear = pl::linear(h, w);
  h.add_(1); // h is not needed: only w is, for h's gradient
  (product.sum() + linear.sum()).backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(1 + 2 + 1 + 3, 3 + 4 + 2 + 4));
}

TEST_P(Autograd, ARootGradientTakesTheRootsDtype) {
  const Tensor x = leaf({1, 2}, {2}); // float
  x.backward(make({1, 10}, {2}, device(), pl::kDouble));
  EXPECT_EQ(x.grad().dtype(), pl::kFloat);
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(1, 10));
  const pl::Device other = device().is_cpu() ? pl::Device("sim:0") : pl::Device(pl::kCPU);
  const Tensor y = leaf({1}, {}); // a scalar: a cpu scalar gradient is still refused
  EXPECT_THROW_CONTAINING(y.backward(make({1}, {}, other)), pl::DeviceMismatchError,
                          "backward: invalid gradient at index 0: expected device");
}

TEST_P(Autograd, MaxOfAnInfiniteMaximumHasAFiniteGradient) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor x = leaf({inf, 1}, {2});
  x.max().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(1, 0));
  const Tensor rows = leaf({-inf, -inf, 1, 2}, {2, 2});
  std::get<0>(rows.max(1)).sum().backward(); // a row of -inf: its index is 0
  EXPECT_THAT(values(rows.grad()), ::testing::ElementsAre(1, 0, 0, 1));
}

TEST_P(Autograd, MaxSplitsTiesEvenlyAndMaxOfADimGivesThemToItsIndex) {
  // As PyTorch: max() splits evenly, max(dim) follows the index it returns.
  const Tensor x = leaf({3, 1, 3}, {3});
  x.max().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(0.5, 0, 0.5));
  const Tensor y = leaf({3, 1, 3, 0, 2, 2}, {2, 3});
  const auto [maxima, indices] = y.max(1, true);
  EXPECT_THAT(values(indices), ::testing::ElementsAre(0, 1));
  (maxima * make({10, 20}, {2, 1}, device())).sum().backward();
  EXPECT_THAT(values(y.grad()), ::testing::ElementsAre(10, 0, 0, 0, 20, 0));
}

TEST_P(Autograd, MaxOfANaNSendsTheGradientToTheNaNs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = leaf({1, nan, 2}, {3});
  x.max().backward();
  EXPECT_THAT(values(x.grad()), ::testing::ElementsAre(0, 1, 0));
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
