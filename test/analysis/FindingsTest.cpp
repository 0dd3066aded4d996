// The findings handler calls for each rule: what must be reported and what
// must not.
#include "AnalysisTestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace placelint::analysis::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Line numbers in the findings count from the prelude's `#include` as 1.
std::vector<std::string> findings(const std::string &Body, const char *Function = "f") {
  return analyzeFunction(PlSnippetPrelude + Body, Function).Findings;
}

TEST(MixedDeviceFindingsTest, DefiniteMismatchWithOrigins) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  Tensor a = zeros({2}).to(kCUDA);
  Tensor b = ones({2});
  auto c = a + b;
  auto d = a.add(b);
  auto e = matmul(b, a);
  Tensor a2 = a;
  a2 += b;
}
)cpp"),
              ElementsAre("mixed L7 'a'@cuda(moved L5) 'b'@cpu(created L6) in operator+",
                          "mixed L8 'a'@cuda(moved L5) 'b'@cpu(created L6) in add",
                          "mixed L9 'b'@cpu(created L6) 'a'@cuda(moved L5) in matmul",
                          "mixed L11 'a2'@cuda(assigned L10) 'b'@cpu(created L6) in operator+="));
}

TEST(MixedDeviceFindingsTest, CudaIndicesAndSim) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  Tensor a = zeros({2}).to("cuda:0");
  Tensor b = zeros({2}).to("cuda:1");
  Tensor c = zeros({2}).cuda();
  Tensor s = zeros({2}).to("sim:0");
  auto ab = a + b;
  auto ac = a + c;
  auto bc = b * c;
  auto as = a - s;
}
)cpp"),
              ElementsAre("mixed L9 'a'@cuda:0(moved L5) 'b'@cuda:1(moved L6) in operator+",
                          // `cuda()` is the current device, cuda:0 unless changed
                          "mixed L11 'b'@cuda:1(moved L6) 'c'@cuda(moved L7) in operator*",
                          "mixed L12 'a'@cuda:0(moved L5) 's'@sim:0(moved L8) in operator-"));
}

TEST(MixedDeviceFindingsTest, MayMismatch) {
  EXPECT_THAT(findings(R"cpp(
void f(bool c, Device dev) {
  Tensor a = zeros({2});
  if (c)
    a = a.cuda();
  Tensor b = ones({2});
  auto x = b + a;
  auto y = a.to(dev) + b;
  auto z = a.to(dev) + b.to(dev);
}
)cpp"),
              ElementsAre("may L9 'a'@cuda(moved L7) 'b'@cpu(created L8) in operator+",
                          "may L10 'a.to(dev)'@the device in 'dev'(moved L10) 'b'@cpu(created L8) "
                          "in operator+"));
}

TEST(MixedDeviceFindingsTest, NeverForScalarsCopiesOrUnknown) {
  EXPECT_THAT(findings(R"cpp(
void f(Tensor unknown) {
  Tensor g = zeros({2}).cuda();
  Tensor s = zeros({2}).sum();
  auto a = g * s;
  auto b = s + g;
  auto c = g * 2.0;
  auto d = g + scalar_tensor(1.0);
  Tensor host = zeros({2});
  host.copy_(g);
  auto e = g + unknown;
  auto f2 = g + opaque(host);
  g += s;
}
)cpp"),
              IsEmpty());
}

TEST(MixedDeviceFindingsTest, CpuScalarCannotBeTheInPlaceSelf) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  Tensor g = zeros({2}).cuda();
  Tensor s = zeros({2}).sum();
  s += g;
}
)cpp"),
              ElementsAre("mixed L7 's'@cpu(assigned L6) 'g'@cuda(moved L5) in operator+="));
}

TEST(MixedDeviceFindingsTest, MayNotesNameTheOriginOfTheStatedDevice) {
  EXPECT_THAT(findings(R"cpp(
void f(int k) {
  Tensor x = zeros({2});
  switch (k) {
  case 0: x = ones({2}); break;
  default: x = ones({2}).to("cuda:0"); break;
  }
  Tensor g = zeros({2}).to("cuda:0");
  auto y = g + x;
}
)cpp"),
              ElementsAre("may L11 'x'@cpu(created L7) 'g'@cuda:0(moved L10) in operator+"));
}

TEST(MixedDeviceFindingsTest, EscapedAndPassedByReferenceBecomeUnknown) {
  EXPECT_THAT(findings(R"cpp(
void swapIn(Tensor &a, Tensor &b);
void f() {
  Tensor g = zeros({2}).cuda();
  Tensor a = zeros({2});
  fill(a);
  auto s1 = a + g;
  Tensor b = zeros({2});
  Tensor &alias = b;
  alias = alias.cuda();
  auto s2 = b + g;
  Tensor c = zeros({2});
  Tensor *p = &c;
  auto s3 = c + g;
  Tensor d = zeros({2});
  auto capture = [&d]() { d = d.cuda(); };
  capture();
  auto s4 = d + g;
  Tensor e = zeros({2});
  Tensor g2 = zeros({2}).cuda();
  swapIn(e, g2);
  auto s5 = e + g;
  Tensor h = zeros({2});
  use(h);
  auto s6 = h + g;
}
)cpp"),
              ElementsAre("mixed L27 'h'@cpu(created L25) 'g'@cuda(moved L6) in operator+"));
}

TEST(MixedDeviceFindingsTest, NonConstMemberCallsForgetFields) {
  EXPECT_THAT(findings(R"cpp(
struct Model {
  Tensor w;
  void moveWeights();
  void inspect() const;
  Tensor run() {
    w = zeros({2});
    inspect();
    auto a = w + zeros({2}).cuda();
    moveWeights();
    return w + zeros({2}).cuda();
  }
};
)cpp", "run"),
              ElementsAre("mixed L11 'w'@cpu(created L9) 'zeros({2}).cuda()'@cuda(moved L11) "
                          "in operator+"));
}

TEST(MixedDeviceFindingsTest, ModuleToOnThisForgetsFields) {
  EXPECT_THAT(findings(R"cpp(
struct Net : nn::Module {
  Tensor w;
  Tensor run(Device d) {
    w = zeros({2});
    auto a = w + zeros({2}).cuda();
    to(d);
    return w + zeros({2}).cuda();
  }
};
)cpp", "run"),
              ElementsAre("mixed L8 'w'@cpu(created L7) 'zeros({2}).cuda()'@cuda(moved L8) "
                          "in operator+"));
}

TEST(MixedDeviceFindingsTest, ListsAndModules) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  Tensor g = zeros({2}).cuda();
  Tensor h = zeros({2});
  auto c = cat({g, g, h});
  auto s = stack({g, g});
  nn::Linear lin(2, 2);
  auto y = lin(g);
  auto y2 = lin->forward(h);
  lin->to(kCUDA);
  auto y3 = lin(g);
  auto y4 = lin->forward(h);
}
)cpp"),
              ElementsAre("mixed L7 'g'@cuda(moved L5) 'h'@cpu(created L6) in cat",
                          "mixed L10 'g'@cuda(moved L5) 'lin'@cpu(created L9) in forward",
                          "mixed L14 'h'@cpu(created L6) 'lin'@cuda(moved L12) in forward"));
}

TEST(MixedDeviceFindingsTest, ThroughHelpersAndMembers) {
  EXPECT_THAT(findings(R"cpp(
Tensor gpu(const Tensor &x) { return x.cuda(); }
struct Model {
  Tensor w;
  Tensor run(Tensor x) {
    w = zeros({2});
    return gpu(x) * w;
  }
};
)cpp", "run"),
              ElementsAre("mixed L9 'gpu(x)'@cuda(assigned L9) 'w'@cpu(created L8) in "
                          "operator*"));
}

TEST(DiscardedTransferFindingsTest, ReportedWithFixability) {
  EXPECT_THAT(findings(R"cpp(
void f(Tensor byValue, Tensor readAfter, Tensor &byRef, const Tensor constRef) {
  Tensor t = zeros({2});
  t.to(kCUDA);
  t.cuda();
  byValue.cpu();
  readAfter.cpu();
  use(readAfter);
  byRef.cuda();
  constRef.cuda();
  t.cuda().cpu();
  if (true)
    t.to("cuda:1");
}
)cpp"),
              // A by-value parameter read no more: assigning the result back changes nothing
              // the caller sees (the caller expected the move), so there is no fix.
              ElementsAre("discarded L6 to 't' fixable", "discarded L7 cuda 't' fixable",
                          "discarded L8 cpu 'byValue'", "discarded L9 cpu 'readAfter' fixable",
                          "discarded L11 cuda 'byRef'", "discarded L12 cuda 'constRef'",
                          "discarded L13 cpu 't.cuda()'", "discarded L15 to 't' fixable"));
}

TEST(DiscardedTransferFindingsTest, NotReported) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  Tensor t = zeros({2});
  (void)t.to(kCUDA);
  t = t.cuda();
  use(t.cpu());
  auto u = t.cuda();
  nn::Linear lin(2, 2);
  lin->to(kCUDA);
  static_cast<void>(t.cuda());
}
)cpp"),
              IsEmpty());
}

TEST(DiscardedTransferFindingsTest, ReadsOnlyOnAnotherBranchNeedNoFix) {
  // `x = x.cuda();` would change nothing read: the read is on the other
  // branch (it comes later in the source, not in execution); in a loop the
  // next iteration's read counts.
  EXPECT_THAT(findings(R"cpp(
void f(Tensor x, Tensor y, bool c, int n) {
  if (c) {
    x.cuda();
  } else {
    use(x);
  }
  for (int i = 0; i < n; ++i) {
    use(y);
    y.cuda();
  }
}
)cpp"),
              ElementsAre("discarded L6 cuda 'x'", "discarded L12 cuda 'y' fixable"));
}

TEST(CreateThenMoveFindingsTest, FirstUseInExecutionOrder) {
  EXPECT_THAT(analyzeFunction(PlSnippetPrelude + std::string(R"cpp(
void f(Device dev, bool c) {
  Tensor a = zeros({2});
  Tensor onDevice = a.to(dev);
  a = onDevice * 2;
  use(a);
  Tensor b = ones({2});
  if (c)
    return;
  use(b.to(dev));
  Tensor e = ones({2});
  if (c) {
    use(e);
    return;
  }
  use(e.to(dev));
}
)cpp"), "f").CreatedThenMoved,
              // a: what is read after the move is a new value. b, e: a path
              // skips the move (and e's reads the host tensor there), so no
              // fix; the read on the other path is no use before the move.
              ElementsAre("created L5 moved L6 'a' fixable", "created L9 moved L12 'b'",
                          "created L13 moved L18 'e'"));
}

TEST(PrecedenceFindingsTest, OneReportPerExpression) {
  // rules.def's Subsumes: discarded-transfer over create-then-move over
  // pageable-non-blocking, on the same move.
  AnalysisRun Run = analyzeFunction(PlSnippetPrelude + std::string(R"cpp(
void f(Device dev) {
  zeros({2}).to(dev, /*non_blocking=*/true);
  use(zeros({2}).to(dev, /*non_blocking=*/true));
  Tensor h = zeros({2});
  use(h.to(dev, /*non_blocking=*/true));
  use(h);
}
)cpp"), "f");
  EXPECT_THAT(Run.Findings, ElementsAre("discarded L5 to 'zeros({2})'", "pageable L8 'h'"));
  EXPECT_THAT(Run.CreatedThenMoved, ElementsAre("created L6 moved L6 'zeros({2})' fixable"));
}

TEST(TransferInLoopFindingsTest, InvariantTransfer) {
  EXPECT_THAT(findings(R"cpp(
void f(Device dev, int n) {
  Tensor w = randn({3});
  Tensor w2 = randn({3});
  for (int i = 0; i < n; ++i) {
    auto y = w.to(dev);
    auto z = w2.cuda();
  }
  while (n--) {
    use(w.to("cuda:1"));
  }
}
)cpp"),
              ElementsAre("invariant L8 'w' to the device in 'dev' loop L7",
                          "invariant L9 'w2' to cuda loop L7",
                          "invariant L12 'w' to cuda:1 loop L11"));
}

TEST(TransferInLoopFindingsTest, BatchPatternAndChangingSourcesAreNotInvariant) {
  EXPECT_THAT(findings(R"cpp(
struct Loader { Tensor *begin(); Tensor *end(); };
void f(Device dev, int n, Loader &loader) {
  for (auto &batch : loader)
    use(batch.to(dev));
  for (int i = 0; i < n; ++i) {
    Tensor x = load();
    use(x.to(dev));
  }
  Tensor x = randn({2});
  for (int i = 0; i < n; ++i) {
    use(x.to(dev));
    x = load();
  }
  Tensor y = randn({2});
  for (int i = 0; i < n; ++i) {
    fill(y);
    use(y.to(dev));
  }
  Tensor z = randn({2});
  for (int i = 0; i < n; ++i) {
    use(z.to(dev));
    z.add_(z);
  }
  Tensor g = randn({2}).cuda();
  for (int i = 0; i < n; ++i)
    use(g.to(kCUDA));
  Device moving = pickDevice();
  for (int i = 0; i < n; ++i) {
    use(y.to(moving));
    moving = pickDevice();
  }
}
)cpp"),
              IsEmpty());
}

// A range-for that writes the elements through a reference changes the
// container (Mutations.h), so its element is no invariant source; the
// container only read keeps its finding.
TEST(TransferInLoopFindingsTest, ContainerWrittenThroughARangeForChanges) {
  EXPECT_THAT(findings(R"cpp(
void f(Device dev, int n) {
  std::vector<Tensor> read = {randn({3})};
  std::vector<Tensor> written = {randn({3})};
  for (int i = 0; i < n; ++i) {
    use(read[0].to(dev));
    use(written[0].to(dev));
    for (auto &t : written)
      t = t * 2;
    for (const auto &t : read)
      use(t);
  }
}
)cpp"),
              ElementsAre("invariant L8 'read[0]' to the device in 'dev' loop L7"));
}

TEST(TransferInLoopFindingsTest, RoundTripAndSync) {
  EXPECT_THAT(findings(R"cpp(
void f(int n) {
  for (int i = 0; i < n; ++i) {
    Tensor x = randn({2});
    auto g = x.cuda();
    auto back = g.cpu();
    auto loss = (g * g).sum();
    auto value = loss.item();
    auto host = loss.to(kCPU);
  }
  for (int i = 0; i < n; ++i) {
    Tensor y = load();
    auto g = y.cuda();
    auto back = g.cpu();
  }
}
)cpp"),
              ElementsAre("roundtrip L8 'g' back to cpu via cuda first L7 loop L5",
                          "sync L10 'loss' from cuda loop L5",
                          "sync L11 'loss' from cuda loop L5",
                          // Where y came from is unknown: still to cuda and straight back.
                          "roundtrip L16 'g' back to cpu via cuda first L15 loop L13"));
}

TEST(TransferInLoopFindingsTest, PrecedenceInvariantOverSync) {
  EXPECT_THAT(findings(R"cpp(
void f(int n) {
  Tensor g = randn({2}).cuda();
  for (int i = 0; i < n; ++i)
    use(g.cpu());
}
)cpp"),
              ElementsAre("invariant L7 'g' to cpu loop L6"));
}

TEST(TransferInLoopFindingsTest, NothingOutsideLoopsOrOnHostTensors) {
  EXPECT_THAT(findings(R"cpp(
void f(int n) {
  Tensor g = randn({2}).cuda();
  auto v = g.sum().item();
  auto h = g.cpu();
  for (int i = 0; i < n; ++i) {
    Tensor x = load();
    auto s = x.sum().item();
  }
}
)cpp"),
              IsEmpty());
}

TEST(FindingsTest, LambdasAreAnalysedWithTheirFunction) {
  EXPECT_THAT(findings(R"cpp(
void f() {
  auto step = []() {
    Tensor a = zeros({2}).cuda();
    Tensor b = zeros({2});
    return a + b;
  };
  step();
}
)cpp"),
              ElementsAre("mixed L8 'a'@cuda(moved L6) 'b'@cpu(created L7) in operator+"));
}

// Its cost is measured by bench/analyzer (the long-function case), not here.
TEST(FindingsTest, LargeFunctionConverges) {
  // 5,000 statements in nested loops and branches.
  std::string Body = "void f(int n, bool c, Device dev) {\n  Tensor acc = load();\n";
  for (int Block = 0; Block < 250; ++Block) {
    Body += "  for (int i = 0; i < n; ++i) {\n    if (c) {\n";
    for (int S = 0; S < 8; ++S)
      Body += "      acc = acc + zeros({4}).to(dev);\n";
    Body += "    } else {\n";
    for (int S = 0; S < 8; ++S)
      Body += "      Tensor t" + std::to_string(S) + " = load();\n";
    Body += "      acc = acc * t0;\n    }\n  }\n";
  }
  Body += "}\n";
  AnalysisRun Run = analyzeFunction(PlSnippetPrelude + Body, "f");
  EXPECT_TRUE(Run.Analyzed);
  EXPECT_THAT(Run.Findings, IsEmpty());
}

} // namespace
} // namespace placelint::analysis::testing
