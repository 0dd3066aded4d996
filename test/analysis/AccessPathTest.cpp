// Values followed through the places they live in (access paths): fields
// of structs, elements of tuples and pairs, containers, smart pointers; and
// through every callable of the unit: helpers returning structs, member
// functions that change their object, lambdas, templates, constructors.
// Read at `probe(x)` calls; AbstractValue's join is a lattice join.
#include "AnalysisTestSupport.h"

#include "flow/AbstractValue.h"

#include <cstring>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace placelint::analysis::testing {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> devicesAtProbes(const std::string &Code) {
  return analyzeFunction(std::string(PlSnippetPrelude) + "#include <map>\n#include <tuple>\n" +
                             Code,
                         "f")
      .ProbeDevices;
}

TEST(AccessPathTest, FieldsOfStructs) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
struct Batch { Tensor x; Tensor y; };
struct Config { Device device; int seed; };
void f(Device dev) {
  Batch b{zeros({2}).cuda(), zeros({2})};
  probe(b.x);
  probe(b.y);
  b.y = b.y.to(dev);
  probe(b.y);
  Batch copy = b;
  probe(copy.x);
  Config cfg{Device(kCUDA, 1), 0};
  probe(cfg.device);
  auto shared = std::make_shared<Config>(cfg);
  probe(zeros({2}).to(shared->device));
}
)cpp"),
              ElementsAre("cuda", "cpu", "the device in 'dev'", "cuda", "cuda:1", "cuda:1"));
}

TEST(AccessPathTest, TuplesPairsAndBindings) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f() {
  auto t = std::make_tuple(zeros({2}).cuda(), zeros({2}));
  probe(std::get<0>(t));
  probe(std::get<1>(t));
  std::pair<Tensor, Tensor> p(zeros({2}), zeros({2}).cuda());
  probe(p.first);
  probe(p.second);
  auto [a, b] = t;
  probe(a);
  probe(b);
}
)cpp"),
              ElementsAre("cuda", "cpu", "cpu", "cuda", "cuda", "cpu"));
}

TEST(AccessPathTest, ContainersShareOneValue) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
void f(std::vector<Tensor> v, int n) {
  std::map<int, Tensor> byId;
  byId[0] = zeros({2}).cuda();
  probe(byId.at(0));
  for (auto &t : v)
    t = t.cuda();
  probe(v[0]);
  std::vector<Tensor> w{zeros({2}), zeros({2})};
  for (int i = 0; i < n; ++i)
    w[i] = w[i].cuda();
  probe(w.front());
  std::vector<Tensor> u{zeros({2}), zeros({2})};
  u[0] = u[0].cuda();
  probe(u[1]);
}
)cpp"),
              ElementsAre("cuda", "cuda", "cuda", "cpu or cuda"));
}

TEST(AccessPathTest, HelpersReturningStructsAndMethodsChangingTheirObject) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
struct Batch { Tensor x; Tensor y; };
Batch make(Device d) { return {zeros({2}).to(d), zeros({2})}; }
struct Holder {
  Tensor w;
  void toDevice(Device d) { w = w.to(d); }
  Tensor scaled() const { return w * 2; }
};
void f(Device dev) {
  Batch b = make(dev);
  probe(b.x);
  probe(b.y);
  probe(make(dev).y);
  Holder h{zeros({2})};
  probe(h.scaled());
  h.toDevice(dev);
  probe(h.w);
  probe(h.scaled());
}
)cpp"),
              ElementsAre("the device in 'dev'", "cpu", "cpu", "cpu", "the device in 'dev'",
                          "the device in 'dev'"));
}

// A method that stores a struct in a container field leaves the field and
// the struct's fields in it (`items_` and `items_.y`): its object must keep
// both whatever order the flow state, hashed by the fields' addresses, lists
// them in. Declarations before the classes move those addresses; each
// layout must give the same devices (corpus transition_field_done_forgotten,
// once found by some runs and not others).
TEST(AccessPathTest, MethodsObjectDoesNotDependOnFieldAddresses) {
  const std::string Program = R"cpp(
struct Sample { Tensor x; Tensor y; };
class Buffer {
public:
  void push(Sample s) { items_.push_back(std::move(s)); }
  Sample take() { return {items_[0].x, items_[0].y}; }
private:
  std::vector<Sample> items_;
};
void f(Device dev) {
  Buffer buffer;
  buffer.push({zeros({2}).to(dev), zeros({2})});
  Sample s = buffer.take();
  probe(s.x);
  probe(s.y);
}
)cpp";
  std::string Padding;
  for (int Layout = 0; Layout < 12; ++Layout, Padding += "int pad" + std::to_string(Layout) + ";\n")
    EXPECT_THAT(devicesAtProbes("#include <vector>\n" + Padding + Program),
                ElementsAre("the device in 'dev'", "cpu"))
        << "with " << Layout << " declarations before the classes";
}

TEST(AccessPathTest, LambdasTemplatesAndConstructors) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
template <class T> T moved(const T &x, Device d) { return x.to(d); }
struct Pair {
  Pair(Tensor a, Device d) : host(a), device(a.to(d)) {}
  Tensor host;
  Tensor device;
};
void f(Device dev) {
  auto toGpu = [](const Tensor &x) { return x.cuda(); };
  probe(toGpu(zeros({2})));
  auto onDev = [&]() { return zeros({2}).to(dev); };
  probe(onDev());
  probe(moved(zeros({2}), dev));
  Pair p(zeros({2}), Device(kCUDA, 1));
  probe(p.host);
  probe(p.device);
}
)cpp"),
              ElementsAre("cuda", "the device in 'dev'", "the device in 'dev'", "cpu", "cuda:1"));
}

TEST(AccessPathTest, DeviceHelpersKeepEveryDeviceTheyMayReturn) {
  EXPECT_THAT(devicesAtProbes(R"cpp(
Device tryGpu(int i) {
  if (i < cuda::device_count())
    return Device(kCUDA, i);
  return Device(kCPU);
}
Device firstGpu() {
  if (cuda::is_available())
    return Device(kCUDA, 0);
  return Device(kCPU);
}
void f() {
  probe(zeros({2}).to(tryGpu(1)));
  probe(zeros({2}).to(firstGpu()));
}
)cpp"),
              ElementsAre("cpu or cuda:1", "cpu or cuda:0"));
}

// A map's entry named by a constant key is the step the key's text names:
// the same in every function and unit, whichever keys were met before and
// in whichever order (no table that grows with each analysis).
TEST(AccessPathTest, MapKeysAreTheirTextWhateverWasAnalysedBefore) {
  const AccessStep Ids = AccessStep::key("ids");
  EXPECT_TRUE(Ids.isKey());
  EXPECT_EQ(Ids.asField(), nullptr);
  EXPECT_NE(Ids, AccessStep::key("mask"));
  EXPECT_FALSE(AccessStep::element(0).isKey());
  for (auto [First, Second] : {std::pair{"ids", "mask"}, std::pair{"mask", "ids"}}) {
    std::string Program = R"cpp(
void f(Device dev) {
  std::map<std::string, Tensor> batch;
  batch["FIRST"] = zeros({2}).to(dev);
  batch["SECOND"] = zeros({2});
  probe(batch["FIRST"]);
  probe(batch.at("SECOND"));
}
)cpp";
    for (auto [Name, Key] : {std::pair{"FIRST", First}, std::pair{"SECOND", Second}})
      for (size_t At = Program.find(Name); At != std::string::npos; At = Program.find(Name))
        Program.replace(At, std::strlen(Name), Key);
    EXPECT_THAT(devicesAtProbes("#include <string>\n" + Program),
                ElementsAre("the device in 'dev'", "cpu"))
        << "with \"" << First << "\" first";
  }
  EXPECT_EQ(AccessStep::key("ids"), Ids);
}

// AbstractValue's join, on parts made up of fake fields: commutative,
// associative, idempotent, and a part missing on one side counts as that
// side's whole.
TEST(AccessPathTest, AbstractValueJoinIsALatticeJoin) {
  alignas(8) static const char FieldStorage[2][8] = {};
  auto Field = [&](int I) {
    return *AccessPath().child(
        AccessStep::field(reinterpret_cast<const clang::FieldDecl *>(FieldStorage[I])));
  };
  auto On = [](AbstractDevice D) { return ValueFact::on(DeviceSet::of(D)); };
  AbstractValue A(On(AbstractDevice::cpu()));
  A.set(Field(0), On(AbstractDevice::cuda(0)));
  AbstractValue B(On(AbstractDevice::cpu()));
  B.set(Field(1), On(AbstractDevice::cuda(1)));
  AbstractValue C(On(AbstractDevice::cuda(0)));
  for (const AbstractValue &X : {A, B, C}) {
    EXPECT_EQ(X.join(X), X);
    for (const AbstractValue &Y : {A, B, C}) {
      EXPECT_EQ(X.join(Y), Y.join(X));
      for (const AbstractValue &Z : {A, B, C})
        EXPECT_EQ(X.join(Y).join(Z), X.join(Y.join(Z)));
    }
  }
  AbstractValue AB = A.join(B);
  EXPECT_EQ(AB.at(Field(0)).Devices, DeviceSet::of(AbstractDevice::cpu())
                                         .join(DeviceSet::of(AbstractDevice::cuda(0))));
  EXPECT_EQ(AB.at(Field(1)).Devices, DeviceSet::of(AbstractDevice::cpu())
                                         .join(DeviceSet::of(AbstractDevice::cuda(1))));
  EXPECT_EQ(AbstractValue().join(A), A);
}

} // namespace
} // namespace placelint::analysis::testing
