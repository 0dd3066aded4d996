// Devices the flow analysis computes, read at `probe(x)` calls.
#include "AnalysisTestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace placelint::analysis::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> devicesAtProbes(const std::string &Body) {
  return analyzeFunction(PlSnippetPrelude + Body, "f").ProbeDevices;
}

TEST(FlowFactsTest, FactoriesAndTransfers) {
  // pl has no zeros_like; libtorch's, which the model knows, stands in.
  EXPECT_THAT(devicesAtProbes(R"cpp(
namespace pl { Tensor zeros_like(const Tensor &self); }
void f(Device dev) {
  Tensor a = zeros({2});
  probe(a);
  Tensor b = ones({2}, device(kCUDA));
  probe(b);
  probe(a.to(kCUDA));
  probe(a.to(Device(kCUDA, 1)));
  probe(a.to("cuda:1"));
  probe(a.to("sim:0"));
  probe(a.cuda().cpu());
  probe(a.to(dev));
  probe(a.to(kFloat));
  probe(a.to(b));
  probe(zeros({2}, TensorOptions().device(kSim)));
  probe(zeros({2}, dtype(kFloat)));
  probe(zeros_like(b));
  probe(zeros({2}, b.options()));
}
)cpp"),
              ElementsAre("cpu", "cuda", "cuda", "cuda:1", "cuda:1", "sim:0", "cpu",
                          "the device in 'dev'", "cpu", "cuda", "sim", "cpu", "cuda", "cuda"));
}

TEST(FlowFactsTest, BranchesJoin) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f(bool c, int k) {
  Tensor a = zeros({2});
  if (c)
    a = a.to(kCUDA);
  probe(a);
  Tensor b = zeros({2});
  if (c)
    b = b.cuda();
  else
    b = ones({2}).cuda();
  probe(b);
  Tensor s = zeros({2});
  switch (k) {
  case 0: s = s.to("cuda:1"); break;
  case 1: s = s.to("sim:0"); break;
  default: break;
  }
  probe(s);
  probe(c ? a.cuda() : a.cpu());
}
)cpp"),
              ElementsAre("cpu or cuda", "cuda", "cpu or cuda:1 or sim:0", "cpu or cuda"));
}

TEST(FlowFactsTest, EarlyReturnAndLoops) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f(bool c, int n) {
  Tensor a = zeros({2});
  if (c) {
    a = a.cuda();
    return;
  }
  probe(a);
  Tensor b = zeros({2});
  for (int i = 0; i < n; ++i) {
    probe(b);
    b = b.to("cuda:1");
  }
  probe(b);
  Tensor w = zeros({2});
  while (c)
    w = load();
  probe(w);
}
)cpp"),
              ElementsAre("cpu", "cpu or cuda:1", "cpu or cuda:1", "unknown"));
}

TEST(FlowFactsTest, CopiesMovesAndReassignment) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f() {
  Tensor a = zeros({2}).cuda();
  Tensor b = a;
  probe(b);
  Tensor c = std::move(a);
  probe(c);
  b = zeros({2});
  probe(b);
  c = b;
  probe(c);
  Tensor d;
  probe(d);
  d = opaque(c);
  probe(d);
}
)cpp"),
              ElementsAre("cuda", "cuda", "cpu", "cpu", "unknown", "unknown"));
}

TEST(FlowFactsTest, DeviceVariables) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f(Device param) {
  Device one(kCUDA, 1);
  probe(one);
  Device text("sim:2");
  probe(text);
  Device chosen = cuda::is_available() ? kCUDA : kCPU;
  probe(chosen);
  Device picked = pickDevice();
  probe(picked);
  probe(param);
  Device copy = one;
  probe(copy);
  Tensor x = zeros({2});
  probe(x.to(chosen));
  probe(x.to(one).device());
}
)cpp"),
              ElementsAre("cuda:1", "sim:2", "the device in 'chosen'", "the device in 'picked'",
                          "the device in 'param'", "cuda:1", "the device in 'chosen'",
                          "cuda:1"));
}

TEST(FlowFactsTest, InvalidDeviceStringIsUnknown) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f() {
  Tensor x = zeros({2});
  probe(x.to("gpu"));
  probe(x.to("cuda:01"));
}
)cpp"),
              ElementsAre("unknown", "unknown"));
}

TEST(FlowFactsTest, ZeroDimTracking) {
  AnalysisRun Run = analyzeFunction(std::string(PlSnippetPrelude) + R"cpp(void f() {
  Tensor a = zeros({2, 3});
  probe(a);
  probe(a.sum());
  probe(a.sum(0));
  probe(scalar_tensor(2.0));
  probe(tensor(2.0));
  probe(tensor({1.0, 2.0}));
  probe(a.mean().cuda());
  probe(a + a);
  probe(a.relu());
  probe(zeros({}));
  probe(zeros({2}).view({2, 1}));
  probe(zeros({2}).view({-1}));
}
)cpp", "f");
  EXPECT_THAT(Run.ProbeDims,
              // a (two sizes): two dims or more, as a + a and a.relu();
              // a.sum(0): a reduction over a dim keeps the others
              ElementsAre(ZeroDim::Matrix, ZeroDim::Yes, ZeroDim::No, ZeroDim::Yes,
                          ZeroDim::Yes, ZeroDim::No, ZeroDim::Yes, ZeroDim::Matrix,
                          ZeroDim::Matrix, ZeroDim::Yes, ZeroDim::Matrix, ZeroDim::No));
}

TEST(FlowFactsTest, OpResultsFollowTheNonScalarDevice) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f() {
  Tensor g = zeros({2}).cuda();
  Tensor s = zeros({2}).sum();
  probe(g * s);
  probe(s * g);
  probe(g * 2.0);
  probe(matmul(g, g));
  probe(cat({g, g}));
  probe(relu(g));
}
)cpp"),
              ElementsAre("cuda", "cuda", "cuda", "cuda", "cuda", "cuda"));
}

TEST(FlowFactsTest, SummariesOfFunctionsInTheUnit) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
Tensor toDevice(const Tensor &x, Device d) { return x.to(d); }
Tensor onGpu() { return zeros({2}).cuda(); }
Tensor same(Tensor x) { return x; }
Tensor pick(bool c, Tensor a, Tensor b) { if (c) return a; return b; }
Tensor recurse(Tensor x, int n) { return n ? recurse(x, n - 1) : x; }
Tensor localDevice(Tensor x) { Device d = pickDevice(); return x.to(d); }
void f(Device dev, bool c) {
  Tensor x = zeros({2});
  probe(toDevice(x, Device("cuda:1")));
  probe(toDevice(x, dev));
  probe(onGpu());
  probe(same(x));
  probe(same(onGpu()));
  probe(pick(c, x, onGpu()));
  probe(recurse(x, 3));
  probe(localDevice(x));
}
)cpp"),
              ElementsAre("cuda:1", "the device in 'dev'", "cuda", "cpu", "cuda", "cpu or cuda",
                          "unknown", "unknown"));
}

TEST(FlowFactsTest, FieldsOfThisStartUnknown) {
  AnalysisRun Run = analyzeFunction(std::string(PlSnippetPrelude) + R"cpp(struct Layer {
  Tensor w;
  Device dev;
  void step() {
    probe(w);
    probe(w.to(dev));
    w = zeros({2}).cuda();
    probe(w);
    probe(this->w);
  }
};
)cpp", "step");
  EXPECT_THAT(Run.ProbeDevices,
              ElementsAre("unknown", "the device in 'dev'", "cuda", "cuda"));
}

TEST(FlowFactsTest, ConstructorInitializersSetFields) {
  AnalysisRun Run = analyzeFunction(std::string(PlSnippetPrelude) + R"cpp(struct Layer {
  Tensor w;
  Layer() : w(zeros({2}).to("cuda:1")) { probe(w); }
};
)cpp", "Layer");
  EXPECT_THAT(Run.ProbeDevices, ElementsAre("cuda:1"));
}

TEST(FlowFactsTest, ModulesStartOnCpuAndMoveInPlace) {
  AnalysisRun Run = analyzeFunction(std::string(PlSnippetPrelude) + R"cpp(void f(Device dev) {
  nn::Linear lin(3, 4);
  probe(lin);
  lin->to(kCUDA);
  probe(lin);
  lin->to(kFloat);
  probe(lin);
  auto net = std::make_shared<nn::LinearImpl>(3, 4);
  probe(net);
  net->to(dev);
  probe(net);
}
)cpp", "f");
  EXPECT_THAT(Run.ProbeDevices,
              ElementsAre("cpu", "cuda", "cuda", "cpu", "the device in 'dev'"));
}

TEST(FlowFactsTest, LibtorchProfile) {
  AnalysisRun Run = analyzeFunction(R"cpp(#include <torch/torch.h>
void probe(const at::Tensor &);
void f() {
  at::Tensor a = at::zeros({2});
  probe(a);
  probe(a.to(torch::kCUDA));
  probe(a.to(torch::Device("cuda:1")));
  probe(a.to(c10::Device(c10::DeviceType::CUDA, 2)));
  probe(at::ones({2}, torch::device(torch::kCUDA)));
  probe(a.to(c10::DeviceType::HIP));
}
)cpp", "f");
  EXPECT_THAT(Run.ProbeDevices,
              ElementsAre("cpu", "cuda", "cuda:1", "cuda:2", "cuda", "unknown"));
}

TEST(FlowFactsTest, BodiesWithoutTensorsAreSkipped) {
  AnalysisRun Run = analyzeFunction(R"cpp(#include <pl/pl.h>
int f(int x) { for (int i = 0; i < x; ++i) x += i; return x; }
)cpp", "f");
  EXPECT_FALSE(Run.Analyzed);
  EXPECT_THAT(Run.Findings, IsEmpty());
}

} // namespace
} // namespace placelint::analysis::testing
