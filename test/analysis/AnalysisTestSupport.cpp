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

// The helpers are declared on line 2, after the using-directive, so that
// the snippet's own code starts on line 3 whatever they are.
const char *const PlSnippetPrelude =
    "#include <pl/pl.h>\n"
    "using namespace pl; "
    "void probe(const Tensor &); void probe(Device); void probe(const TensorOptions &); "
    "template <class T> void probe(const std::shared_ptr<T> &); "
    "void probe(const nn::Linear &); "
    "void use(const Tensor &); void fill(Tensor &); Tensor load(); "
    "Tensor opaque(const Tensor &); Device pickDevice();\n";

std::vector<std::string> snippetArgs() {
  std::vector<std::string> Args = {"-std=c++20", "-fsyntax-only", "-Wno-unused-value",
                                   "-resource-dir", PL_TEST_CLANG_RESOURCE_DIR};
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  llvm::StringRef(PL_TEST_PL_INCLUDE_DIRS).split(Dirs, '|');
  for (llvm::StringRef Dir : Dirs) {
    Args.push_back("-isystem");
    Args.push_back(Dir.str());
  }
  Args.push_back("-isystem");
  Args.push_back(PL_TEST_MOCK_INCLUDE_DIR);
  return Args;
}

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

  void onCreateThenMove(const CreateThenMoveFinding &F) override {
    CreatedThenMoved.push_back("created " + line(F.Factory->getExprLoc()) + " moved " +
                    line(F.Move->getExprLoc()) + " '" + text(F.Receiver) + "'" +
                    (F.FixKeepsBehaviour ? " fixable" : ""));
  }

  void onPageableNonBlocking(const PageableNonBlockingFinding &F) override {
    Lines.push_back("pageable " + line(F.Copy->getExprLoc()) + " '" + text(F.Source) + "'");
  }

  void onNonLeafParameter(const NonLeafParameterFinding &F) override {
    const char *Use = F.Kind == ParameterUseKind::Optimizer  ? "optimizer"
                      : F.Kind == ParameterUseKind::GradRead ? "grad read"
                                                             : "registration";
    Lines.push_back("nonleaf " + line(F.Move->getExprLoc()) + " '" + text(F.Tensor) + "' by " +
                    Use + " " + line(F.Use->getExprLoc()));
  }

  std::vector<std::string> Lines;
  std::vector<std::string> CreatedThenMoved;

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
  std::unique_ptr<ASTUnit> Unit =
      tooling::buildASTFromCodeWithArgs(Code, snippetArgs(), "input.cc", "placelint-test");
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

  DeviceAnalysis Analysis(Context, AnalysisOptions{Profile, {}});
  Recorder Findings(Context);
  llvm::DenseMap<const Expr *, ValueFact> Facts;
  Run.Analyzed = Analysis.analyze(*Function, Findings,
                                  [&](const Expr &E, const ValueFact &Fact) {
                                    Facts[&E] = Fact;
                                  });
  Run.Findings = std::move(Findings.Lines);
  Run.CreatedThenMoved = std::move(Findings.CreatedThenMoved);

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
