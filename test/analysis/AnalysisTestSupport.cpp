#include "AnalysisTestSupport.h"

#include "placelint/analysis/DeviceAnalysis.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"

#include <gtest/gtest.h>


namespace placelint::analysis::testing {

using namespace clang;

// The few standard names the mocks use, freestanding: the tests run without
// a clang resource directory, so no real standard header can be included.
const char *const StdMockHeader = R"cpp(
#pragma once
namespace std {
template <class E> class initializer_list {
  const E *First; unsigned long Size;
  constexpr initializer_list(const E *F, unsigned long S) : First(F), Size(S) {}
public:
  constexpr initializer_list() : First(nullptr), Size(0) {}
  constexpr const E *begin() const { return First; }
  constexpr const E *end() const { return First + Size; }
};
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T> typename remove_reference<T>::type &&move(T &&t) noexcept {
  return static_cast<typename remove_reference<T>::type &&>(t);
}
template <class T> class shared_ptr {
public:
  T *operator->() const;
  T &operator*() const;
};
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
} // namespace std
)cpp";

// A freestanding mock (no standard headers: the tests run without a clang
// resource directory) of the part of the `pl` API the analysis models.
const char *const PlMockHeader = R"cpp(
#pragma once
#include "std_mock.h"
namespace pl {
using int64_t = long;
enum class DeviceType : signed char { CPU, CUDA, Sim };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kSim = DeviceType::Sim;
class Device {
public:
  Device(DeviceType Type, short Index = -1);
  Device(const char *Text);
  bool is_cuda() const;
};
enum class ScalarType { Float, Double };
constexpr ScalarType kFloat = ScalarType::Float;
class TensorOptions {
public:
  TensorOptions();
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions device(Device D) const;
  TensorOptions dtype(ScalarType T) const;
  Device device() const;
};
TensorOptions device(Device D);
TensorOptions dtype(ScalarType T);
class Scalar { public: Scalar(double); };
class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const Tensor &);
  Tensor &operator=(Tensor &&);
  Tensor to(Device D) const;
  Tensor to(ScalarType T) const;
  Tensor to(const Tensor &Other) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor add(const Tensor &O) const;
  Tensor &add_(const Tensor &O);
  Tensor matmul(const Tensor &O) const;
  Tensor mm(const Tensor &O) const;
  Tensor &copy_(const Tensor &O);
  Tensor sum() const;
  Tensor sum(int64_t Dim) const;
  Tensor mean() const;
  Tensor relu() const;
  Tensor view(std::initializer_list<int64_t> Shape) const;
  Device device() const;
  TensorOptions options() const;
  Scalar item() const;
  Tensor &operator+=(const Tensor &O);
  Tensor &operator*=(const Tensor &O);
};
Tensor operator+(const Tensor &A, const Tensor &B);
Tensor operator-(const Tensor &A, const Tensor &B);
Tensor operator*(const Tensor &A, const Tensor &B);
Tensor operator*(const Tensor &A, double B);
Tensor operator*(double A, const Tensor &B);
Tensor zeros(std::initializer_list<int64_t> Sizes, TensorOptions O = {});
Tensor ones(std::initializer_list<int64_t> Sizes, TensorOptions O = {});
Tensor randn(std::initializer_list<int64_t> Sizes, TensorOptions O = {});
Tensor empty(std::initializer_list<int64_t> Sizes, TensorOptions O = {});
Tensor scalar_tensor(double V, TensorOptions O = {});
Tensor tensor(double V, TensorOptions O = {});
Tensor tensor(std::initializer_list<double> V, TensorOptions O = {});
Tensor zeros_like(const Tensor &T);
Tensor matmul(const Tensor &A, const Tensor &B);
Tensor cat(std::initializer_list<Tensor> Ts, int64_t Dim = 0);
Tensor stack(std::initializer_list<Tensor> Ts, int64_t Dim = 0);
Tensor relu(const Tensor &T);
namespace cuda { bool is_available(); }
namespace nn {
class Module {
public:
  virtual ~Module();
  void to(Device D);
  void to(ScalarType T);
};
class LinearImpl : public Module {
public:
  LinearImpl(int64_t In, int64_t Out);
  Tensor forward(const Tensor &X);
};
template <typename Impl> class ModuleHolder {
public:
  template <typename... A> ModuleHolder(A &&...Args);
  Impl *operator->();
  template <typename... A> Tensor operator()(A &&...Args);
};
class Linear : public ModuleHolder<LinearImpl> {
public:
  using ModuleHolder<LinearImpl>::ModuleHolder;
};
} // namespace nn
} // namespace pl
void probe(const pl::Tensor &);
void probe(pl::Device);
void probe(const pl::TensorOptions &);
template <class T> void probe(const std::shared_ptr<T> &);
void probe(const pl::nn::Linear &);
void use(const pl::Tensor &);
void fill(pl::Tensor &);
pl::Tensor load();
pl::Tensor opaque(const pl::Tensor &);
pl::Device pickDevice();
)cpp";

// The shape of libtorch's declarations: at::Tensor derives from TensorBase,
// torch:: names are aliases of at:: and c10:: ones, `to` takes
// TensorOptions built implicitly from a Device.
const char *const TorchMockHeader = R"cpp(
#pragma once
#include "std_mock.h"
namespace c10 {
enum class DeviceType : signed char { CPU = 0, CUDA = 1, HIP = 6 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
struct Device {
  Device(DeviceType Type, signed char Index = -1);
  Device(const char *Text);
};
struct TensorOptions {
  TensorOptions();
  template <typename... Args> TensorOptions(Args &&...A);
  template <typename... Args> TensorOptions device(Args &&...A) const;
};
inline TensorOptions device(Device D) { return TensorOptions().device(D); }
} // namespace c10
namespace at {
using namespace c10;
class TensorBase {
public:
  Device device() const;
};
class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor &operator=(const Tensor &) &;
  Tensor to(TensorOptions Options = {}, bool NonBlocking = false, bool Copy = false) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor add(const Tensor &O) const;
  Tensor sum() const;
};
Tensor operator+(const Tensor &A, const Tensor &B);
Tensor zeros(std::initializer_list<long> Sizes, TensorOptions O = {});
Tensor ones(std::initializer_list<long> Sizes, TensorOptions O = {});
} // namespace at
namespace torch {
using namespace at;
namespace nn {
class Module {
public:
  virtual ~Module();
  void to(c10::Device D, bool NonBlocking = false);
};
} // namespace nn
} // namespace torch
void probe(const at::Tensor &);
)cpp";

namespace {

std::string sourceText(const Expr *E, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                              Context.getLangOpts())
      .str();
}

class Recorder : public FindingsHandler {
public:
  explicit Recorder(const ASTContext &Context) : Context(Context) {}

  void onMixedDevice(const MixedDeviceFinding &F) override { mixed("mixed", F); }
  void onMayMixedDevice(const MixedDeviceFinding &F) override { mixed("may", F); }
  void onDiscardedTransfer(const DiscardedTransferFinding &F) override {
    Lines.push_back("discarded " + line(F.Call->getExprLoc()) + " " + F.Method + " '" +
                    text(F.Receiver) + "'" + (F.ReceiverIsAssignable ? " fixable" : ""));
  }
  void onInvariantTransferInLoop(const LoopTransferFinding &F) override {
    Lines.push_back("invariant " + line(F.Call->getExprLoc()) + " '" + text(F.Receiver) +
                    "' to " + F.Target.describe(symbolName) +
                    (F.Loop ? " loop " + line(F.Loop->getBeginLoc())
                            : " every call of " + F.PerCallOf->getNameAsString()));
  }
  void onRoundTripInLoop(const RoundTripFinding &F) override {
    Lines.push_back("roundtrip " + line(F.Call->getExprLoc()) + " '" + text(F.Receiver) +
                    "' back to " + F.Target.describe(symbolName) + " via " +
                    F.Intermediate.describe(symbolName) + " first " +
                    line(F.FirstTransfer->getExprLoc()) + " loop " +
                    line(F.Loop->getBeginLoc()));
  }
  void onSyncInLoop(const SyncFinding &F) override {
    Lines.push_back("sync " + line(F.Call->getExprLoc()) + " '" + text(F.Receiver) +
                    "' from " + F.Source.describe(symbolName) + " loop " +
                    line(F.Loop->getBeginLoc()));
  }

  std::vector<std::string> Lines;

private:
  std::string text(const Expr *E) const { return sourceText(E, Context); }
  std::string line(SourceLocation Loc) const {
    return "L" + std::to_string(Context.getSourceManager().getSpellingLineNumber(Loc));
  }
  std::string origin(const Origin &From) const {
    switch (From.Kind) {
    case OriginKind::Created:
      return "(created " + line(From.Loc) + ")";
    case OriginKind::Moved:
      return "(moved " + line(From.Loc) + ")";
    case OriginKind::Assigned:
      return "(assigned " + line(From.Loc) + ")";
    case OriginKind::None:
      break;
    }
    return "";
  }
  void mixed(const char *Kind, const MixedDeviceFinding &F) {
    Lines.push_back(std::string(Kind) + " " + line(F.Call->getExprLoc()) + " '" +
                    text(F.First.Operand) + "'@" + describe(F.FirstDevice, symbolName) +
                    origin(F.First.From) + " '" + text(F.Second.Operand) + "'@" +
                    describe(F.SecondDevice, symbolName) + origin(F.Second.From) + " in " +
                    F.OpName);
  }

  const ASTContext &Context;
};

class ProbeFinder : public RecursiveASTVisitor<ProbeFinder> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && Callee->getName() == "probe" &&
        Call->getNumArgs() == 1)
      Args.push_back(Call->getArg(0));
    return true;
  }
  std::vector<const Expr *> Args;
};

} // namespace

AnalysisRun analyzeFunction(llvm::StringRef Code, llvm::StringRef FunctionName,
                            ApiProfile Profile) {
  AnalysisRun Run;
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      Code, {"-std=c++20", "-fsyntax-only", "-Wno-unused-value"}, "input.cc", "placelint-test",
      std::make_shared<PCHContainerOperations>(), tooling::getClangStripDependencyFileAdjuster(),
      {{"std_mock.h", StdMockHeader}, {"pl.h", PlMockHeader}, {"torch.h", TorchMockHeader}});
  if (!Unit) {
    ADD_FAILURE() << "could not parse the snippet";
    return Run;
  }
  ASTContext &Context = Unit->getASTContext();
  EXPECT_FALSE(Context.getDiagnostics().hasErrorOccurred()) << "the snippet has errors";
  using namespace ast_matchers;
  auto Matches = match(
      functionDecl(hasName(FunctionName.str()), isDefinition()).bind("f"), Context);
  if (Matches.empty()) {
    ADD_FAILURE() << "no function named " << FunctionName.str();
    return Run;
  }
  const auto *Function = Matches.front().getNodeAs<FunctionDecl>("f");

  DeviceAnalysis Analysis(Context, Profile);
  Recorder Findings(Context);
  llvm::DenseMap<const Expr *, ValueFact> Facts;
  Run.Analyzed = Analysis.analyze(*Function, Findings,
                                  [&](const Expr &E, const ValueFact &Fact) {
                                    Facts[&E] = Fact;
                                  });
  Run.Findings = std::move(Findings.Lines);

  ProbeFinder Probes;
  Probes.TraverseDecl(const_cast<FunctionDecl *>(Function));
  for (const Expr *Arg : Probes.Args) {
    const ValueFact *Found = nullptr;
    for (const Expr *E : {Arg, Arg->IgnoreImplicit(), Arg->IgnoreParenImpCasts()})
      if (auto It = Facts.find(E); It != Facts.end()) {
        Found = &It->second;
        break;
      }
    Run.ProbeDevices.push_back(Found ? Found->Devices.describe(symbolName) : "no fact");
    Run.ProbeDims.push_back(Found ? Found->Dim : ZeroDim::Unknown);
  }
  return Run;
}

} // namespace placelint::analysis::testing
