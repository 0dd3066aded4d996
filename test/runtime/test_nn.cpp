// nn::Module, holders, Linear, ReLU, Sequential: parameters, buffers,
// submodules, in-place to(), and the device check in forward.
#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl_test::values;

struct NetImpl : pl::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", pl::nn::Linear(4, 8));
    fc2 = register_module("fc2", pl::nn::Linear(pl::nn::LinearOptions(8, 2).bias(false)));
    scale = register_parameter("scale", pl::ones({2}));
    steps = register_buffer("steps", pl::zeros({1}, pl::kLong));
  }
  pl::Tensor forward(const pl::Tensor &x) { return fc2(pl::relu(fc1(x))) * scale; }

  pl::nn::Linear fc1{nullptr};
  pl::nn::Linear fc2{nullptr};
  pl::Tensor scale;
  pl::Tensor steps;
};
PL_MODULE(Net);

TEST(Module, NamedParametersBuffersAndChildrenAreInRegistrationOrder) {
  Net net;
  EXPECT_EQ(net->named_parameters().keys(),
            (std::vector<std::string>{"scale", "fc1.weight", "fc1.bias", "fc2.weight"}));
  EXPECT_EQ(net->named_parameters(false).keys(), (std::vector<std::string>{"scale"}));
  EXPECT_EQ(net->parameters().size(), 4u);
  EXPECT_EQ(net->named_buffers().keys(), (std::vector<std::string>{"steps"}));
  EXPECT_EQ(net->buffers().size(), 1u);
  EXPECT_EQ(net->named_children().keys(), (std::vector<std::string>{"fc1", "fc2"}));
  EXPECT_EQ(net->children().size(), 2u);
  EXPECT_EQ(net->named_parameters()["fc1.weight"].sizes().vec(), (std::vector<std::int64_t>{8, 4}));
  EXPECT_THROW_MESSAGE(net->named_parameters()["nope"], pl::IndexError,
                       "key 'nope' is not defined");
  EXPECT_EQ(net->fc1->name(), "Linear");
}

TEST(Module, RegistrationRejectsBadNames) {
  pl::nn::Module module;
  module.register_parameter("w", pl::ones({1}));
  EXPECT_THROW_CONTAINING(module.register_parameter("w", pl::ones({1})), pl::Error,
                          "'w' is already registered");
  EXPECT_THROW_CONTAINING(module.register_buffer("w", pl::ones({1})), pl::Error,
                          "'w' is already registered");
  EXPECT_THROW_CONTAINING(module.register_parameter("a.b", pl::ones({1})), pl::Error,
                          "must not contain a dot");
  EXPECT_THROW_CONTAINING(module.register_parameter("", pl::ones({1})), pl::Error,
                          "must not be empty");
  EXPECT_THROW_CONTAINING(module.register_parameter("u", pl::Tensor()), pl::Error,
                          "'u' is undefined");
}

TEST(Module, ToMovesParametersAndBuffersInPlaceForEveryHandle) {
  Net net;
  const pl::Tensor weight_handle = net->fc1->weight;
  const auto before = values(weight_handle);
  net->to(Device("sim:1"));
  for (const auto &item : net->named_parameters())
    EXPECT_EQ(item.value().device(), Device("sim:1")) << item.key();
  EXPECT_EQ(net->steps.device(), Device("sim:1"));
  EXPECT_EQ(net->fc1->weight.device(), Device("sim:1")) << "member handles see the move";
  EXPECT_EQ(net->fc2->weight.device(), Device("sim:1"));
  EXPECT_EQ(weight_handle.device(), Device("sim:1")) << "copies of the handle too";
  EXPECT_EQ(values(weight_handle), before);
  const pl::Tensor out = net(pl::ones({3, 4}, Device("sim:1")));
  EXPECT_EQ(out.device(), Device("sim:1"));
  EXPECT_EQ(out.sizes().vec(), (std::vector<std::int64_t>{3, 2}));
}

TEST(Module, ToDtypeConvertsOnlyFloatingTensors) {
  Net net;
  net->to(pl::kDouble);
  EXPECT_EQ(net->fc1->weight.dtype(), pl::kDouble);
  EXPECT_EQ(net->steps.dtype(), pl::kLong);
  net->to(Device("sim:0"), pl::kFloat);
  EXPECT_EQ(net->fc1->weight.dtype(), pl::kFloat);
  EXPECT_EQ(net->fc1->weight.device(), Device("sim:0"));
  EXPECT_EQ(net->steps.device(), Device("sim:0"));
}

TEST(Module, ForwardOnAnInputOnAnotherDeviceIsAMixedDeviceError) {
  pl::nn::Linear linear(4, 3);
  linear->to(Device("sim:0"));
  const pl::Tensor input = pl::ones({2, 4});
  EXPECT_THROW_MESSAGE(linear(input), pl::DeviceMismatchError,
                       PL_RULE_ID_MixedDevice ": linear: expected all tensors on the same device, "
                                              "but 'input' is on cpu and 'weight' is on sim:0");
  EXPECT_THROW_MESSAGE(linear->forward(input.to(Device("sim:1"))), pl::DeviceMismatchError,
                       PL_RULE_ID_MixedDevice ": linear: expected all tensors on the same device, "
                                              "but 'input' is on sim:1 and 'weight' is on sim:0");
  EXPECT_NO_THROW((void)linear(input.to(Device("sim:0"))));
}

TEST(Linear, ComputesXWTransposedPlusB) {
  pl::nn::Linear linear(3, 2);
  EXPECT_EQ(linear->weight.sizes().vec(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(linear->bias.sizes().vec(), (std::vector<std::int64_t>{2}));
  const double bound = 1.0 / std::sqrt(3.0);
  for (double w : values(linear->weight)) {
    EXPECT_GE(w, -bound);
    EXPECT_LE(w, bound);
  }
  {
    // Parameters are leaves that require grad: set by hand outside autograd.
    const pl::NoGradGuard no_grad;
    linear->weight.copy_(pl::tensor({1.0, 0.0, 0.0, 0.0, 1.0, 1.0}).view({2, 3}));
    linear->bias.copy_(pl::tensor({0.5, -0.5}));
  }
  EXPECT_EQ(values(linear(pl::tensor({1.0, 2.0, 3.0}))), (std::vector<double>{1.5, 4.5}));
  pl::nn::Linear no_bias(pl::nn::LinearOptions(3, 2).bias(false));
  EXPECT_FALSE(no_bias->bias.defined());
  EXPECT_EQ(no_bias->parameters().size(), 1u);
}

TEST(Sequential, AppliesModulesInOrderAndNamesThemByIndex) {
  pl::nn::Sequential seq(pl::nn::Linear(2, 2), pl::nn::ReLU(), pl::nn::Linear(2, 1));
  EXPECT_EQ(seq->size(), 3u);
  EXPECT_EQ(seq->named_parameters().keys(),
            (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  auto first = std::dynamic_pointer_cast<pl::nn::LinearImpl>(seq->ptr(0));
  auto last = std::dynamic_pointer_cast<pl::nn::LinearImpl>(seq->ptr(2));
  ASSERT_TRUE(first && last);
  {
    const pl::NoGradGuard no_grad;
    first->weight.copy_(pl::tensor({1.0, 0.0, 0.0, -1.0}).view({2, 2}));
    first->bias.zero_();
    last->weight.fill_(1);
    last->bias.zero_();
  }
  // relu([x, -y]) summed: only the positive part survives.
  EXPECT_EQ(values(seq(pl::tensor({3.0, 2.0}))), (std::vector<double>{3}));
  EXPECT_EQ(values(seq(pl::tensor({3.0, -2.0}))), (std::vector<double>{5}));
  EXPECT_THROW_CONTAINING(seq->ptr(3), pl::IndexError, "index 3 is out of range");
  seq->to(Device("sim:1"));
  EXPECT_EQ(first->weight.device(), Device("sim:1"));
  EXPECT_THROW_CONTAINING(seq(pl::tensor({1.0, 1.0})), pl::DeviceMismatchError,
                          "'input' is on cpu and 'weight' is on sim:1");
}

TEST(Sequential, PushBackTakesHoldersAndSharedPointers) {
  pl::nn::Sequential seq;
  seq->push_back(pl::nn::Linear(3, 3));
  seq->push_back(std::make_shared<pl::nn::ReLUImpl>());
  seq->push_back("head", pl::nn::Linear(3, 1));
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"0", "1", "head"}));
  EXPECT_EQ(seq(pl::ones({5, 3})).sizes().vec(), (std::vector<std::int64_t>{5, 1}));
}

TEST(ModuleHolder, EmptyHoldersFailClearly) {
  pl::nn::Linear empty(nullptr);
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(static_cast<bool>(empty));
  EXPECT_THROW_CONTAINING(empty->forward(pl::ones({1})), pl::Error, "empty ModuleHolder");
  pl::nn::ReLU relu;
  EXPECT_FALSE(relu.is_empty());
  EXPECT_EQ(values(relu(pl::tensor({-1.0, 2.0}))), (std::vector<double>{0, 2}));
}

TEST(Module, TrainAndEvalReachSubmodules) {
  Net net;
  net->eval();
  EXPECT_FALSE(net->is_training());
  EXPECT_FALSE(net->fc1->is_training());
  net->train();
  EXPECT_TRUE(net->fc2->is_training());
}

} // namespace
