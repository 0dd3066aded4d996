#include "AnalysisTestSupport.h"

#include "placelint/analysis/ApiModel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace placelint::analysis::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ApiModelTest, ProfileNames) {
  EXPECT_EQ(parseApiProfile("auto"), ApiProfile::Auto);
  EXPECT_EQ(parseApiProfile("pl"), ApiProfile::Pl);
  EXPECT_EQ(parseApiProfile("libtorch"), ApiProfile::Libtorch);
  EXPECT_FALSE(parseApiProfile("torch"));
  EXPECT_FALSE(parseApiProfile(""));
  for (ApiProfile P : {ApiProfile::Auto, ApiProfile::Pl, ApiProfile::Libtorch})
    EXPECT_EQ(parseApiProfile(apiProfileName(P)), P);
}

TEST(ApiModelTest, ProfileTables) {
  EXPECT_THAT(profileTable(ApiProfile::Pl).TensorClasses, ElementsAre("pl::Tensor"));
  EXPECT_THAT(profileTable(ApiProfile::Libtorch).TensorClasses,
              ElementsAre("at::Tensor", "at::TensorBase"));
  EXPECT_THAT(profileTable(ApiProfile::Libtorch).DeviceTypeEnums,
              ElementsAre("c10::DeviceType"));
}

TEST(ApiModelTest, DeviceTypeEnumerators) {
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("kCPU"), DeviceKind::CPU);
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("CPU"), DeviceKind::CPU);
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("CUDA"), DeviceKind::CUDA);
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("kCUDA"), DeviceKind::CUDA);
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("Sim"), DeviceKind::Sim);
  EXPECT_EQ(ApiModel::deviceKindOfEnumerator("kSim"), DeviceKind::Sim);
  EXPECT_FALSE(ApiModel::deviceKindOfEnumerator("HIP"));
  EXPECT_FALSE(ApiModel::deviceKindOfEnumerator("k"));
}

TEST(ApiModelTest, TensorMethods) {
  EXPECT_EQ(ApiModel::classifyTensorMethod("to"), CallKind::Transfer);
  EXPECT_EQ(ApiModel::classifyTensorMethod("cuda"), CallKind::Transfer);
  EXPECT_EQ(ApiModel::classifyTensorMethod("cpu"), CallKind::Transfer);
  EXPECT_EQ(ApiModel::classifyTensorMethod("add_"), CallKind::SameDeviceOp);
  EXPECT_EQ(ApiModel::classifyTensorMethod("matmul"), CallKind::SameDeviceOp);
  EXPECT_EQ(ApiModel::classifyTensorMethod("copy_"), CallKind::CrossDeviceCopy);
  EXPECT_EQ(ApiModel::classifyTensorMethod("sum"), CallKind::FullReduction);
  EXPECT_EQ(ApiModel::classifyTensorMethod("item"), CallKind::SyncToHost);
  EXPECT_EQ(ApiModel::classifyTensorMethod("view"), CallKind::Unmodelled);
  EXPECT_EQ(ApiModel::classifyOptionsMethod("device"), CallKind::OptionsDevice);
  EXPECT_EQ(ApiModel::classifyOptionsMethod("dtype"), CallKind::OptionsBuilder);
}

// The profile decides which types are tensors: with `pl` forced, libtorch's
// tensors are not tracked, and the reverse.
TEST(ApiModelTest, ProfileSelectsTheTrackedTypes) {
  const char *PlCode = R"cpp(#include <pl/pl.h>
#include <torch/torch.h>
void f() {
  pl::Tensor a = pl::zeros({2}).cuda();
  pl::Tensor b = pl::zeros({2});
  auto c = a + b;
  at::Tensor x = at::zeros({2}).cuda();
  at::Tensor y = at::zeros({2});
  auto z = x + y;
}
)cpp";
  EXPECT_THAT(analyzeFunction(PlCode, "f", ApiProfile::Pl).Findings,
              ElementsAre("mixed L6 'a'@cuda(moved L4) 'b'@cpu(created L5) in operator+"));
  EXPECT_THAT(analyzeFunction(PlCode, "f", ApiProfile::Libtorch).Findings,
              ElementsAre("mixed L9 'x'@cuda(moved L7) 'y'@cpu(created L8) in operator+"));
  EXPECT_THAT(analyzeFunction(PlCode, "f", ApiProfile::Auto).Findings,
              ElementsAre("mixed L6 'a'@cuda(moved L4) 'b'@cpu(created L5) in operator+",
                          "mixed L9 'x'@cuda(moved L7) 'y'@cpu(created L8) in operator+"));
}

TEST(ApiModelTest, AutoPicksTheProfileTheUnitDeclares) {
  const char *TorchOnly = R"cpp(#include <torch/torch.h>
void f() {
  at::Tensor x = at::zeros({2}).cuda();
  at::Tensor y = at::zeros({2});
  auto z = x + y;
}
)cpp";
  EXPECT_THAT(analyzeFunction(TorchOnly, "f").Findings,
              ElementsAre("mixed L5 'x'@cuda(moved L3) 'y'@cpu(created L4) in operator+"));
  EXPECT_FALSE(analyzeFunction(TorchOnly, "f", ApiProfile::Pl).Analyzed);
  EXPECT_THAT(analyzeFunction(TorchOnly, "f", ApiProfile::Pl).Findings, IsEmpty());
}

} // namespace
} // namespace placelint::analysis::testing
