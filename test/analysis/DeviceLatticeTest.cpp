#include "placelint/analysis/DeviceLattice.h"

#include <gtest/gtest.h>

#include <vector>

namespace placelint::analysis {
namespace {

// Two distinct stand-ins for Device variables; only their identity matters.
const auto *const DevA = reinterpret_cast<const clang::NamedDecl *>(0x1000);
const auto *const DevB = reinterpret_cast<const clang::NamedDecl *>(0x2000);

std::string nameOf(const clang::NamedDecl *Var) { return Var == DevA ? "a" : "b"; }

DeviceSet setOf(std::initializer_list<AbstractDevice> Devices) {
  DeviceSet Result;
  for (const AbstractDevice &D : Devices)
    Result = Result.join(DeviceSet::of(D));
  return Result;
}

std::vector<DeviceSet> samples() {
  return {DeviceSet::bottom(),
          DeviceSet::unknown(),
          DeviceSet::of(AbstractDevice::cpu()),
          DeviceSet::of(AbstractDevice::cuda()),
          DeviceSet::of(AbstractDevice::cuda(0)),
          DeviceSet::of(AbstractDevice::cuda(1)),
          DeviceSet::of(AbstractDevice::sim(0)),
          DeviceSet::of(AbstractDevice::symbolic(DevA)),
          DeviceSet::of(AbstractDevice::ofModule(DevA)),
          setOf({AbstractDevice::cpu(), AbstractDevice::cuda(1)}),
          setOf({AbstractDevice::symbolic(DevB), AbstractDevice::sim(0)}),
          setOf({AbstractDevice::cpu(), AbstractDevice::cuda(), AbstractDevice::cuda(0),
                 AbstractDevice::sim(1)})};
}

TEST(DeviceSetTest, JoinIsCommutative) {
  for (const DeviceSet &L : samples())
    for (const DeviceSet &R : samples())
      EXPECT_EQ(L.join(R), R.join(L)) << L.describe(nameOf) << " | " << R.describe(nameOf);
}

TEST(DeviceSetTest, JoinIsAssociative) {
  for (const DeviceSet &A : samples())
    for (const DeviceSet &B : samples())
      for (const DeviceSet &C : samples())
        EXPECT_EQ(A.join(B).join(C), A.join(B.join(C)));
}

TEST(DeviceSetTest, JoinIsIdempotentWithBottomAsUnitAndUnknownAsTop) {
  for (const DeviceSet &S : samples()) {
    EXPECT_EQ(S.join(S), S);
    EXPECT_EQ(S.join(DeviceSet::bottom()), S);
    EXPECT_TRUE(S.join(DeviceSet::unknown()).isUnknown());
  }
}

TEST(DeviceSetTest, HeightIsBounded) {
  // Joining a fifth different device gives Unknown: no chain is longer than
  // bottom, 1..kMaxDevices members, unknown.
  DeviceSet S = setOf({AbstractDevice::cpu(), AbstractDevice::cuda(0), AbstractDevice::cuda(1),
                       AbstractDevice::sim(0)});
  ASSERT_TRUE(S.isKnown());
  EXPECT_EQ(S.devices().size(), DeviceSet::kMaxDevices);
  EXPECT_TRUE(S.join(DeviceSet::of(AbstractDevice::sim(1))).isUnknown());
  EXPECT_EQ(S.join(DeviceSet::of(AbstractDevice::cuda(1))), S);
}

TEST(DeviceSetTest, SingleAndConcreteness) {
  EXPECT_EQ(DeviceSet::of(AbstractDevice::cuda(1)).single(), AbstractDevice::cuda(1));
  EXPECT_FALSE(setOf({AbstractDevice::cpu(), AbstractDevice::cuda()}).single());
  EXPECT_FALSE(DeviceSet::unknown().single());
  EXPECT_FALSE(DeviceSet::bottom().single());
  EXPECT_TRUE(setOf({AbstractDevice::cpu(), AbstractDevice::cuda()}).allConcrete());
  EXPECT_FALSE(DeviceSet::of(AbstractDevice::symbolic(DevA)).allConcrete());
  EXPECT_FALSE(DeviceSet::unknown().allConcrete());
  // Certainly off the host: a device, a Device variable's device; not a
  // set holding the host, not an unknown or empty set.
  EXPECT_TRUE(setOf({AbstractDevice::cuda(), AbstractDevice::symbolic(DevA)}).excludesCpu());
  EXPECT_FALSE(setOf({AbstractDevice::cpu(), AbstractDevice::cuda()}).excludesCpu());
  EXPECT_FALSE(DeviceSet::unknown().excludesCpu());
  EXPECT_FALSE(DeviceSet::bottom().excludesCpu());
}

TEST(DeviceSetTest, ForgetIfDropsToUnknown) {
  DeviceSet S = setOf({AbstractDevice::cpu(), AbstractDevice::symbolic(DevA)});
  EXPECT_TRUE(S.forgetIf([](const AbstractDevice &D) { return !D.isConcrete(); }).isUnknown());
  EXPECT_EQ(S.forgetIf([](const AbstractDevice &D) { return D.index() == 7; }), S);
}

TEST(AbstractDeviceTest, AModulesDeviceIsNeitherAVariableNorConcrete) {
  AbstractDevice Module = AbstractDevice::ofModule(DevA);
  EXPECT_EQ(Module.form(), AbstractDevice::Form::Module);
  EXPECT_TRUE(Module.isModuleDevice());
  EXPECT_FALSE(Module.isConcrete());
  EXPECT_FALSE(AbstractDevice::symbolic(DevA).isModuleDevice());
  EXPECT_FALSE(AbstractDevice::cuda(1).isModuleDevice());
  EXPECT_NE(Module, AbstractDevice::symbolic(DevA));
  EXPECT_EQ(setOf({Module, AbstractDevice::symbolic(DevA)}).devices().size(), 2u);
  EXPECT_EQ(describe(Module, nameOf), "the device of 'a'");
  EXPECT_EQ(describe(AbstractDevice::symbolic(DevA), nameOf), "the device in 'a'");
}

TEST(DeviceSetTest, SubstituteReplacesOneMember) {
  AbstractDevice Module = AbstractDevice::ofModule(DevA);
  DeviceSet S = setOf({AbstractDevice::cpu(), Module});
  EXPECT_EQ(S.substitute(Module, DeviceSet::of(AbstractDevice::cuda(1))),
            setOf({AbstractDevice::cpu(), AbstractDevice::cuda(1)}));
  EXPECT_TRUE(S.substitute(Module, DeviceSet::unknown()).isUnknown());
  EXPECT_EQ(S.substitute(AbstractDevice::cuda(0), DeviceSet::unknown()), S);
}

TEST(DeviceSetTest, Describe) {
  EXPECT_EQ(DeviceSet::bottom().describe(nameOf), "bottom");
  EXPECT_EQ(DeviceSet::unknown().describe(nameOf), "unknown");
  EXPECT_EQ(setOf({AbstractDevice::cuda(1), AbstractDevice::cpu()}).describe(nameOf),
            "cpu or cuda:1");
}

TEST(AbstractDeviceTest, Describe) {
  EXPECT_EQ(describe(AbstractDevice::cpu(), nameOf), "cpu");
  EXPECT_EQ(describe(AbstractDevice::cuda(), nameOf), "cuda");
  EXPECT_EQ(describe(AbstractDevice::cuda(0), nameOf), "cuda:0");
  EXPECT_EQ(describe(AbstractDevice::cuda(12), nameOf), "cuda:12");
  EXPECT_EQ(describe(AbstractDevice::sim(0), nameOf), "sim:0");
  EXPECT_EQ(describe(AbstractDevice::sim(), nameOf), "sim");
  EXPECT_EQ(describe(AbstractDevice::symbolic(DevA), nameOf), "the device in 'a'");
}

TEST(AbstractDeviceTest, Compare) {
  auto Cpu = AbstractDevice::cpu();
  auto Cuda = AbstractDevice::cuda();
  auto Cuda0 = AbstractDevice::cuda(0);
  auto Cuda1 = AbstractDevice::cuda(1);
  auto Sim0 = AbstractDevice::sim(0);
  auto Sim1 = AbstractDevice::sim(1);
  auto A = AbstractDevice::symbolic(DevA);
  auto B = AbstractDevice::symbolic(DevB);
  EXPECT_EQ(compare(Cpu, Cpu), Agreement::Same);
  EXPECT_EQ(compare(Cpu, Cuda), Agreement::Differ);
  EXPECT_EQ(compare(Cuda, Cuda0), Agreement::Same); // the current device is 0
  EXPECT_EQ(compare(Cuda1, Cuda), Agreement::Differ);
  EXPECT_EQ(compare(Cuda0, Cuda1), Agreement::Differ);
  EXPECT_EQ(compare(Sim0, Sim1), Agreement::Differ);
  EXPECT_EQ(compare(Sim0, Cuda0), Agreement::Differ);
  EXPECT_EQ(compare(A, A), Agreement::Same);
  EXPECT_EQ(compare(A, B), Agreement::Unrelated);
  EXPECT_EQ(compare(A, Cpu), Agreement::MayDiffer);
  EXPECT_EQ(compare(Cuda1, B), Agreement::MayDiffer);
}

TEST(ZeroDimTest, Join) {
  EXPECT_EQ(join(ZeroDim::Yes, ZeroDim::Yes), ZeroDim::Yes);
  EXPECT_EQ(join(ZeroDim::No, ZeroDim::No), ZeroDim::No);
  EXPECT_EQ(join(ZeroDim::Yes, ZeroDim::No), ZeroDim::Unknown);
  EXPECT_EQ(join(ZeroDim::No, ZeroDim::Unknown), ZeroDim::Unknown);
  // Two dims or more, joined with one or more: one or more.
  EXPECT_EQ(join(ZeroDim::Matrix, ZeroDim::Matrix), ZeroDim::Matrix);
  EXPECT_EQ(join(ZeroDim::Matrix, ZeroDim::No), ZeroDim::No);
  EXPECT_EQ(join(ZeroDim::Matrix, ZeroDim::Yes), ZeroDim::Unknown);
  EXPECT_TRUE(notZeroDim(ZeroDim::Matrix));
  EXPECT_FALSE(notZeroDim(ZeroDim::Unknown));
  EXPECT_STREQ(describe(ZeroDim::Yes), "0-dim");
  EXPECT_STREQ(describe(ZeroDim::Matrix), "not 0-dim");
}

TEST(ZeroDimTest, Broadcast) {
  // An operation's result has the most dims of its operands.
  EXPECT_EQ(broadcast(ZeroDim::Yes, ZeroDim::Matrix), ZeroDim::Matrix);
  EXPECT_EQ(broadcast(ZeroDim::Unknown, ZeroDim::No), ZeroDim::No);
  EXPECT_EQ(broadcast(ZeroDim::Yes, ZeroDim::Yes), ZeroDim::Yes);
  EXPECT_EQ(broadcast(ZeroDim::Yes, ZeroDim::Unknown), ZeroDim::Unknown);
}

} // namespace
} // namespace placelint::analysis
