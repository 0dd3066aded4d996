// The cache runs the analysis once per function and replays its findings to
// every check that asks.
#include "AnalysisTestSupport.h"

#include "placelint/analysis/AnalysisCache.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace placelint::analysis::testing {
namespace {

using namespace clang;

class CountingHandler : public FindingsHandler {
public:
  void onMixedDevice(const MixedDeviceFinding &) override { ++Mixed; }
  void onDiscardedTransfer(const DiscardedTransferFinding &) override { ++Discarded; }
  int Mixed = 0;
  int Discarded = 0;
};

TEST(AnalysisCacheTest, AnalysesOnceAndReplaysToEveryHandler) {
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      R"cpp(#include <pl/pl.h>
using namespace pl;
void f(Tensor t) {
  Tensor a = zeros({2}).cuda();
  auto b = a + zeros({2});
  t.cuda();
}
)cpp",
      snippetArgs(), "input.cc", "placelint-test");
  ASSERT_TRUE(Unit);
  ASTContext &Context = Unit->getASTContext();
  using namespace ast_matchers;
  const auto *Function = selectFirst<FunctionDecl>(
      "f", match(functionDecl(hasName("f"), isDefinition()).bind("f"), Context));
  ASSERT_TRUE(Function);

  AnalysisCache &Cache = AnalysisCache::forCurrentThread();
  Cache.startTranslationUnit();
  const RecordedFindings &First = Cache.findingsFor(*Function, Context, AnalysisOptions{});
  const RecordedFindings &Second = Cache.findingsFor(*Function, Context, AnalysisOptions{});
  EXPECT_EQ(&First, &Second);
  // Other options are another analysis: another profile, other checks.
  EXPECT_NE(&First, &Cache.findingsFor(*Function, Context, {ApiProfile::Libtorch, {}}));
  EXPECT_NE(&First, &Cache.findingsFor(*Function, Context, {ApiProfile::Auto, {"has_gpu"}}));
  EXPECT_EQ(&First, &Cache.findingsFor(*Function, Context, AnalysisOptions{}));

  CountingHandler A;
  CountingHandler B;
  First.replay(A);
  Second.replay(B);
  EXPECT_EQ(A.Mixed, 1);
  EXPECT_EQ(A.Discarded, 1);
  EXPECT_EQ(B.Mixed, 1);
  EXPECT_EQ(B.Discarded, 1);

  CountingHandler AfterLibtorch;
  Cache.findingsFor(*Function, Context, {ApiProfile::Libtorch, {}}).replay(AfterLibtorch);
  EXPECT_EQ(AfterLibtorch.Mixed, 0); // pl's tensors are not libtorch's
  Cache.startTranslationUnit();
}

} // namespace
} // namespace placelint::analysis::testing
