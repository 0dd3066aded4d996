// placement-mixed-device: every op checks its operands' devices before it
// runs; what must be reported and what must not.
#include <placelint/rule_ids.h>

#include "test_support.h"

namespace {

using pl::Device;
using pl::DeviceMismatchError;

std::string mismatch(const std::string &op, const std::string &a, const std::string &da,
                     const std::string &b, const std::string &db) {
  return std::string(PL_RULE_ID_MixedDevice) + ": " + op +
         ": expected all tensors on the same device, but '" + a + "' is on " + da + " and '" + b +
         "' is on " + db;
}

class MixedDevice : public ::testing::Test {
protected:
  const pl::Tensor cpu = pl::ones({2, 2});
  const pl::Tensor sim0 = pl::ones({2, 2}, Device("sim:0"));
  const pl::Tensor sim1 = pl::ones({2, 2}, Device("sim:1"));
};

TEST_F(MixedDevice, BinaryOperatorsAndMethodsNameSelfAndOther) {
  EXPECT_THROW_MESSAGE(sim0 + cpu, DeviceMismatchError,
                       mismatch("add", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(cpu - sim0, DeviceMismatchError,
                       mismatch("sub", "self", "cpu", "other", "sim:0"));
  EXPECT_THROW_MESSAGE(sim0 * cpu, DeviceMismatchError,
                       mismatch("mul", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(sim0 / cpu, DeviceMismatchError,
                       mismatch("div", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(sim0.add(cpu), DeviceMismatchError,
                       mismatch("add", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(pl::mul(cpu, sim0), DeviceMismatchError,
                       mismatch("mul", "self", "cpu", "other", "sim:0"));
}

TEST_F(MixedDevice, TwoIndicesOfOneTypeAreDifferentDevices) {
  EXPECT_THROW_MESSAGE(sim0 + sim1, DeviceMismatchError,
                       mismatch("add", "self", "sim:0", "other", "sim:1"));
  EXPECT_THROW_MESSAGE(pl::matmul(sim1, sim0), DeviceMismatchError,
                       mismatch("matmul", "self", "sim:1", "other", "sim:0"));
}

TEST_F(MixedDevice, InPlaceOpsAndCompoundAssignment) {
  EXPECT_THROW_MESSAGE(sim0.add_(cpu), DeviceMismatchError,
                       mismatch("add_", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(sim0 += cpu, DeviceMismatchError,
                       mismatch("add_", "self", "sim:0", "other", "cpu"));
  EXPECT_THROW_MESSAGE(cpu -= sim0, DeviceMismatchError,
                       mismatch("sub_", "self", "cpu", "other", "sim:0"));
  EXPECT_THROW_MESSAGE(sim0 *= sim1, DeviceMismatchError,
                       mismatch("mul_", "self", "sim:0", "other", "sim:1"));
  EXPECT_THROW_MESSAGE(sim1.div_(cpu), DeviceMismatchError,
                       mismatch("div_", "self", "sim:1", "other", "cpu"));
  EXPECT_EQ(pl_test::values(sim0), (std::vector<double>(4, 1.0))) << "nothing was written";
}

TEST_F(MixedDevice, MatmulMmCatStack) {
  EXPECT_THROW_MESSAGE(pl::matmul(cpu, sim0), DeviceMismatchError,
                       mismatch("matmul", "self", "cpu", "other", "sim:0"));
  EXPECT_THROW_MESSAGE(sim0.mm(cpu), DeviceMismatchError,
                       mismatch("mm", "self", "sim:0", "mat2", "cpu"));
  EXPECT_THROW_MESSAGE(pl::cat({sim0, sim0, cpu}), DeviceMismatchError,
                       mismatch("cat", "tensors[0]", "sim:0", "tensors[2]", "cpu"));
  EXPECT_THROW_MESSAGE(pl::stack({cpu, sim1}), DeviceMismatchError,
                       mismatch("stack", "tensors[0]", "cpu", "tensors[1]", "sim:1"));
}

// ops.def's SameDeviceStrict ops admit no cpu scalar: PyTorch's cat checks
// every input's device, and its CUDA equal compares the two devices first.
TEST_F(MixedDevice, CatStackAndEqualAdmitNoCpuScalar) {
  const pl::Tensor scalar = pl::tensor(2.0);
  const pl::Tensor sim_scalar = pl::tensor(2.0, Device("sim:0"));
  EXPECT_THROW_MESSAGE(pl::cat({sim0, scalar}), DeviceMismatchError,
                       mismatch("cat", "tensors[0]", "sim:0", "tensors[1]", "cpu"));
  EXPECT_THROW_MESSAGE(pl::stack({sim_scalar, scalar}), DeviceMismatchError,
                       mismatch("stack", "tensors[0]", "sim:0", "tensors[1]", "cpu"));
  EXPECT_THROW_MESSAGE(sim_scalar.equal(scalar), DeviceMismatchError,
                       mismatch("equal", "self", "sim:0", "other", "cpu"));
  EXPECT_TRUE(sim_scalar.allclose(scalar)) << "allclose computes as TensorIterator ops do";
}

TEST_F(MixedDevice, DevicesAreCheckedBeforeShapesAndDtypes) {
  const pl::Tensor wrong_shape = pl::ones({3}, Device("sim:0"));
  EXPECT_THROW(wrong_shape + cpu, DeviceMismatchError);
  EXPECT_THROW(pl::matmul(pl::ones({5}, pl::kLong), sim0), DeviceMismatchError);
}

TEST_F(MixedDevice, ACpuScalarMayJoinAsAnInput) {
  const pl::Tensor scalar = pl::tensor(2.0);
  const pl::Tensor sum = sim0 + scalar;
  EXPECT_EQ(sum.device(), Device("sim:0"));
  EXPECT_EQ(pl_test::values(sum), (std::vector<double>(4, 3.0)));
  const pl::Tensor difference = scalar - sim1;
  EXPECT_EQ(difference.device(), Device("sim:1")) << "the result is on the non-cpu device";
  EXPECT_EQ(pl_test::values(difference), (std::vector<double>(4, 1.0)));
  const pl::Tensor quotient = pl::div(scalar, sim0);
  EXPECT_EQ(pl_test::values(quotient), (std::vector<double>(4, 2.0)));
  sim0.mul_(scalar);
  EXPECT_EQ(pl_test::values(sim0), (std::vector<double>(4, 2.0)));
  EXPECT_EQ((pl::tensor(std::int64_t{3}) * sim0).dtype(), pl::kFloat);
}

TEST_F(MixedDevice, ACpuScalarIsNeverTheSelfOfAnInPlaceOp) {
  const pl::Tensor scalar = pl::tensor(2.0);
  const pl::Tensor sim_scalar = pl::tensor(1.0, Device("sim:0"));
  EXPECT_THROW_MESSAGE(scalar += sim_scalar, DeviceMismatchError,
                       mismatch("add_", "self", "cpu", "other", "sim:0"));
  EXPECT_THROW_MESSAGE(scalar.mul_(sim0), DeviceMismatchError,
                       mismatch("mul_", "self", "cpu", "other", "sim:0"));
}

TEST_F(MixedDevice, OnlyZeroDimCpuTensorsJoin) {
  const pl::Tensor one_element = pl::ones({1});
  EXPECT_THROW_MESSAGE(sim0 + one_element, DeviceMismatchError,
                       mismatch("add", "self", "sim:0", "other", "cpu"));
  const pl::Tensor sim_scalar = pl::tensor(1.0, Device("sim:1"));
  EXPECT_THROW_MESSAGE(sim0 + sim_scalar, DeviceMismatchError,
                       mismatch("add", "self", "sim:0", "other", "sim:1"))
      << "a 0-dim tensor on another accelerator is no exception";
}

TEST_F(MixedDevice, LinearNamesInputWeightAndBias) {
  const pl::Tensor weight = pl::ones({2, 2}, Device("sim:0"));
  const pl::Tensor input = pl::ones({2}, Device("sim:0"));
  EXPECT_THROW_MESSAGE(pl::linear(input, weight, pl::ones({2})), DeviceMismatchError,
                       mismatch("linear", "input", "sim:0", "bias", "cpu"));
  EXPECT_THROW_MESSAGE(pl::linear(pl::ones({2}), weight), DeviceMismatchError,
                       mismatch("linear", "input", "cpu", "weight", "sim:0"));
}

TEST_F(MixedDevice, AtMostOneCpuScalarJoins) {
  // linear has three operands; the devices are checked before the shapes.
  const pl::Tensor input = pl::ones({2}, Device("sim:0"));
  EXPECT_THROW_MESSAGE(pl::linear(input, pl::tensor(1.0), pl::tensor(1.0)), DeviceMismatchError,
                       mismatch("linear", "input", "sim:0", "bias", "cpu"));
}

TEST_F(MixedDevice, CScalarsAndSameDeviceOpsAreFine) {
  EXPECT_NO_THROW((void)(sim0 + 1));
  EXPECT_NO_THROW((void)(2.0 * sim1));
  EXPECT_NO_THROW((void)(sim0 + sim0));
  EXPECT_NO_THROW((void)(cpu + cpu));
  EXPECT_NO_THROW((void)pl::cat({sim1, sim1}));
  EXPECT_NO_THROW((void)pl::matmul(sim0, sim0));
}

TEST_F(MixedDevice, CopyAcrossDevicesIsExplicitAndAllowed) {
  const pl::Tensor destination = pl::zeros({2, 2}, Device("sim:1"));
  destination.copy_(cpu * 3);
  EXPECT_EQ(pl_test::values(destination), (std::vector<double>(4, 3.0)));
  destination.copy_(sim0);
  EXPECT_EQ(pl_test::values(destination), (std::vector<double>(4, 1.0)));
  cpu.copy_(destination * 5);
  EXPECT_EQ(pl_test::values(cpu), (std::vector<double>(4, 5.0)));
}

TEST_F(MixedDevice, UndefinedOperandsAreNamed) {
  const pl::Tensor undefined;
  EXPECT_THROW_MESSAGE(sim0 + undefined, pl::Error, "add: 'other' is an undefined tensor");
  EXPECT_THROW_MESSAGE(undefined.sizes(), pl::Error,
                       "the tensor is undefined (default-constructed)");
}

} // namespace
