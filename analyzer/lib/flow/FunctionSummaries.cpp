#include "flow/FunctionSummaries.h"

#include "BodyFacts.h"
#include "flow/DeviceFlow.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

namespace placelint::analysis {

using namespace clang;

SummaryProvider::~SummaryProvider() = default;

bool isAnalyzable(const FunctionDecl &Function, const ASTContext &Context) {
  return Function.hasBody() && Function.doesThisDeclarationHaveABody() &&
         !Function.isDependentContext() && !Function.isInvalidDecl() &&
         !Context.getDiagnostics().hasUncompilableErrorOccurred();
}

namespace {

// The cache key: the callee and its arguments' devices and ranks.
std::string summaryKey(const FunctionDecl &Callee, llvm::ArrayRef<ValueFact> Arguments) {
  std::string Key;
  llvm::raw_string_ostream Stream(Key);
  Stream << static_cast<const void *>(&Callee);
  for (const ValueFact &Arg : Arguments) {
    Stream << '|' << static_cast<int>(Arg.Dim) << Arg.OptionsWithoutDevice;
    Stream << (Arg.Devices.isBottom() ? "b" : Arg.Devices.isUnknown() ? "u" : "s");
    for (const AbstractDevice &D : Arg.Devices.devices())
      Stream << ',' << D.isConcrete() << static_cast<int>(D.type()) << ':' << D.index()
             << ':' << static_cast<const void *>(D.symbol());
  }
  return Key;
}

} // namespace

ValueFact FunctionSummaries::resultOf(const FunctionDecl &Callee,
                                      llvm::ArrayRef<ValueFact> Arguments) {
  if (!isAnalyzable(Callee, Context) || InProgress.contains(&Callee) ||
      InProgress.size() >= kMaxDepth)
    return ValueFact::unknown();
  std::string Key = summaryKey(Callee, Arguments);
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;

  InProgress.insert(&Callee);
  BodyFacts Body(*Callee.getBody(), Model);
  FunctionFacts Facts(Callee, Body);
  bool Converged = DeviceFlow(Context, Model, *this, Arguments, Facts).run();
  InProgress.erase(&Callee);
  ValueFact Summary = Converged ? Facts.returned() : ValueFact::unknown();
  if (Summary.Devices.isBottom())
    Summary = ValueFact::unknown();
  // The callee's own Device variables mean nothing to the caller.
  Summary.Devices = Summary.Devices.forgetIf([&](const AbstractDevice &D) {
    return !D.isConcrete() && D.symbol() && Callee.Encloses(D.symbol()->getDeclContext());
  });
  Summary.setOrigin({});
  Summary.forgetTransfer();
  Cache.emplace(std::move(Key), Summary);
  return Summary;
}

} // namespace placelint::analysis
