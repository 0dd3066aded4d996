#include "AnalysisTestSupport.h"

#include "OpCatalogue.h"
#include "placelint/analysis/ApiModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

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

TEST(ApiModelTest, GpuTestSuffixEntries) {
  using Entry = std::pair<std::string, unsigned>;
  EXPECT_EQ(ApiModel::parseGpuTestSuffix("_CUDA"), Entry("_CUDA", 1));
  EXPECT_EQ(ApiModel::parseGpuTestSuffix(" _MultiCUDA = 2 "), Entry("_MultiCUDA", 2));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix(""));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix("=2"));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix("_CUDA="));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix("_CUDA=two"));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix("_CUDA=0"));
  EXPECT_FALSE(ApiModel::parseGpuTestSuffix("_CU DA=1"));
}

TEST(ApiModelTest, NamesMapToKinds) {
  for (ApiProfile Profile : {ApiProfile::Pl, ApiProfile::Libtorch}) {
    const ProfileTable &Table = profileTable(Profile);
    auto Tensor = [&](llvm::StringRef Name) { return Table.TensorMethods.lookup(Name); };
    EXPECT_EQ(Tensor("to").Kind, CallKind::Transfer);
    EXPECT_EQ(Tensor("to").Target, TransferTarget::Argument);
    EXPECT_EQ(Tensor("cuda").Target, TransferTarget::Cuda);
    EXPECT_EQ(Tensor("cpu").Target, TransferTarget::Cpu);
    EXPECT_EQ(Tensor("add_").Kind, CallKind::SameDeviceOp);
    EXPECT_EQ(Tensor("matmul").Rank, ResultRank::Unknown);
    EXPECT_EQ(Tensor("copy_").Kind, CallKind::CrossDeviceCopy);
    EXPECT_EQ(Tensor("sum").Kind, CallKind::FullReduction);
    EXPECT_EQ(Tensor("item").Kind, CallKind::SyncToHost);
    EXPECT_EQ(Tensor("view").Kind, CallKind::Reshape);
    EXPECT_EQ(Tensor("grad").Kind, CallKind::GradRead);
    EXPECT_EQ(Tensor("requires_grad_").Kind, CallKind::MarkRequiresGrad);
    EXPECT_FALSE(Tensor("masked_fill").isModelled()); // OtherApi, by ApiModel::classifyMethod
    EXPECT_EQ(Table.OptionsMethods.lookup("device").Kind, CallKind::OptionsDevice);
    EXPECT_EQ(Table.OptionsMethods.lookup("dtype").Kind, CallKind::OptionsBuilder);
    EXPECT_EQ(Table.OptionsMethods.lookup("pinned_memory").Kind, CallKind::OptionsPinnedMemory);
    EXPECT_EQ(Table.FreeFunctions.lookup("zeros").Kind, CallKind::Factory);
    EXPECT_EQ(Table.FreeFunctions.lookup("cat").Kind, CallKind::ListOp);
    EXPECT_EQ(Table.ModuleMethods.lookup("register_buffer").Kind, CallKind::RegisterBuffer);
    EXPECT_EQ(Table.OptimizerMethods.lookup("step").Kind, CallKind::OptimizerStep);
    EXPECT_EQ(Tensor("sizes").Kind, CallKind::Metadata);
  }
  // libtorch's names beyond the catalogue's.
  const ProfileTable &Libtorch = profileTable(ApiProfile::Libtorch);
  EXPECT_EQ(Libtorch.TensorMethods.lookup("dot").Rank, ResultRank::ZeroDim);
  EXPECT_EQ(Libtorch.FreeFunctions.lookup("randint").Kind, CallKind::Factory);
  EXPECT_FALSE(profileTable(ApiProfile::Pl).FreeFunctions.lookup("randint").isModelled());
}

// What ops.def's Devices, Result and in-place columns say reaches the model.
TEST(ApiModelTest, CatalogueColumnsDriveTheModel) {
  for (ApiProfile Profile : {ApiProfile::Pl, ApiProfile::Libtorch}) {
    const ProfileTable &Table = profileTable(Profile);
    auto Tensor = [&](llvm::StringRef Name) { return Table.TensorMethods.lookup(Name); };
    // Devices: SameDevice admits a cpu scalar, SameDeviceStrict does not.
    EXPECT_TRUE(Tensor("add").AdmitsCpuScalar);
    EXPECT_TRUE(Table.FreeFunctions.lookup("matmul").AdmitsCpuScalar);
    EXPECT_FALSE(Table.FreeFunctions.lookup("cat").AdmitsCpuScalar);
    EXPECT_FALSE(Table.FreeFunctions.lookup("stack").AdmitsCpuScalar);
    EXPECT_FALSE(Tensor("equal").AdmitsCpuScalar);
    // Result: set_data's tensor takes its argument's device.
    EXPECT_EQ(Tensor("set_data").Kind, CallKind::ReplacesData);
    EXPECT_EQ(Tensor("copy_").Kind, CallKind::CrossDeviceCopy);
    // The in-place column, whatever the name looks like.
    EXPECT_TRUE(Tensor("set_data").InPlace);
    EXPECT_TRUE(Tensor("set_requires_grad").InPlace);
    EXPECT_TRUE(Tensor("add_").InPlace);
    EXPECT_FALSE(Tensor("add").InPlace);
  }
  const ProfileTable &Libtorch = profileTable(ApiProfile::Libtorch);
  EXPECT_TRUE(Libtorch.TensorMethods.lookup("clamp_").InPlace);
  EXPECT_FALSE(Libtorch.FreeFunctions.lookup("concat").AdmitsCpuScalar);
  EXPECT_EQ(Libtorch.TensorMethods.lookup("mm").Rank, ResultRank::NotZeroDim);
}

// The libtorch profile is the catalogue, libtorch's own names and an
// explicit list of overrides: a catalogue name among libtorch's own lines,
// an override that models its name as the catalogue does, or a name listed
// twice fails here.
TEST(ApiModelTest, LibtorchLinesAddNamesOrChangeModels) {
  ProfileTable Catalogue;
  addCatalogueOps(Catalogue);
  const ProfileTable &Libtorch = profileTable(ApiProfile::Libtorch);
  auto TableName = [](ApiNames ProfileTable::*Table) -> std::string {
    return Table == &ProfileTable::FreeFunctions   ? "function "
           : Table == &ProfileTable::TensorMethods ? "method "
                                                   : "other ";
  };
  std::set<std::string> Listed;
  for (const ApiLine &Line : libtorchOnlyLines()) {
    std::string Key = TableName(Line.Table) + Line.Name.str();
    EXPECT_TRUE(Listed.insert(Key).second) << Key << " is listed twice";
    EXPECT_FALSE((Catalogue.*Line.Table).contains(Line.Name))
        << Key << " is in the catalogue: an override if libtorch's model differs, else nothing";
    EXPECT_EQ((Libtorch.*Line.Table).lookup(Line.Name), Line.Call) << Key;
  }
  for (const ApiLine &Line : libtorchOverrides()) {
    std::string Key = TableName(Line.Table) + Line.Name.str();
    EXPECT_TRUE(Listed.insert(Key).second) << Key << " is listed twice";
    ASSERT_TRUE((Catalogue.*Line.Table).contains(Line.Name))
        << Key << " overrides no catalogue name: a libtorch-only line";
    EXPECT_NE((Catalogue.*Line.Table).lookup(Line.Name), Line.Call)
        << Key << " overrides the catalogue with the catalogue's own model";
    EXPECT_EQ((Libtorch.*Line.Table).lookup(Line.Name), Line.Call) << Key;
  }
}

// The pl profile is the op catalogue (ops.def): every method and free
// function of the runtime's real <pl/pl.h> that works on tensors is in the
// model, so an op added to the runtime without its catalogue line fails here.
TEST(ApiModelTest, EveryRuntimeOpIsModelled) {
  std::unique_ptr<clang::ASTUnit> Unit = clang::tooling::buildASTFromCodeWithArgs(
      "#include <pl/pl.h>\n", snippetArgs(), "input.cc", "placelint-test");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  ApiModel Model(Context, AnalysisOptions{ApiProfile::Pl});
  using namespace clang::ast_matchers;
  std::vector<std::string> Unmodelled;
  unsigned Seen = 0;
  auto IsTensorApi = [&](const clang::FunctionDecl &F) {
    if (Model.isTensor(F.getReturnType().getNonReferenceType()))
      return true;
    return llvm::any_of(F.parameters(), [&](const clang::ParmVarDecl *P) {
      return Model.isTensor(P->getType().getNonReferenceType());
    });
  };
  for (const BoundNodes &Match :
       match(cxxMethodDecl(ofClass(cxxRecordDecl(hasName("::pl::Tensor"))), isPublic(),
                           unless(anyOf(cxxConstructorDecl(), cxxDestructorDecl(),
                                        isCopyAssignmentOperator(), isMoveAssignmentOperator())))
                 .bind("m"),
             Context)) {
    const auto *Method = Match.getNodeAs<clang::CXXMethodDecl>("m");
    if (!Method->getIdentifier() || Method->getName().starts_with("_"))
      continue;
    ++Seen;
    CallKind Kind = Model.classifyMethod(*Method).Kind;
    if (Kind == CallKind::OtherApi || Kind == CallKind::Unmodelled)
      Unmodelled.push_back("pl::Tensor::" + Method->getNameAsString());
  }
  for (const BoundNodes &Match :
       match(functionDecl(hasParent(namespaceDecl(hasName("::pl"))), unless(cxxMethodDecl()))
                 .bind("f"),
             Context)) {
    const auto *Function = Match.getNodeAs<clang::FunctionDecl>("f");
    if (!Function->getIdentifier() || !IsTensorApi(*Function))
      continue;
    ++Seen;
    CallKind Kind = Model.classifyFunction(*Function).Kind;
    if (Kind == CallKind::OtherApi || Kind == CallKind::Unmodelled)
      Unmodelled.push_back("pl::" + Function->getNameAsString());
  }
  EXPECT_GT(Seen, 50u) << "the header's API was not found";
  llvm::sort(Unmodelled);
  Unmodelled.erase(std::unique(Unmodelled.begin(), Unmodelled.end()), Unmodelled.end());
  EXPECT_THAT(Unmodelled, IsEmpty());
}

// Optimizers are recognised in every spelling, once (ApiModel::optimizerArguments):
// constructed, by std::make_unique / make_shared, and by new.
TEST(ApiModelTest, OptimizersInEverySpelling) {
  const char *Code = R"cpp(#include <torch/torch.h>
#include <memory>
void f(torch::Device dev) {
  auto w = torch::randn({2}, torch::requires_grad()).to(dev);
  auto b = torch::randn({2}, torch::requires_grad()).to(dev);
  auto c = torch::randn({2}, torch::requires_grad()).to(dev);
  auto d = torch::randn({2}, torch::requires_grad()).to(dev);
  torch::optim::SGD sgd({w}, 0.1);
  auto adam = std::make_unique<torch::optim::Adam>(std::vector<torch::Tensor>{b});
  auto shared = std::make_shared<torch::optim::SGD>(std::vector<torch::Tensor>{c}, 0.1);
  auto *raw = new torch::optim::SGD({d}, 0.1);
}
)cpp";
  EXPECT_THAT(analyzeFunction(Code, "f").Findings,
              ElementsAre("nonleaf L4 'w' by optimizer L8", "nonleaf L5 'b' by optimizer L9",
                          "nonleaf L6 'c' by optimizer L10", "nonleaf L7 'd' by optimizer L11"));
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
