// DeviceAnalysis: runs the analysis of a function, and computes and keeps
// the per-call summaries of the functions a translation unit defines.
#include "FunctionAnalyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace placelint::analysis {

using namespace clang;
using detail::FunctionAnalyzer;

FindingsHandler::~FindingsHandler() = default;

std::string symbolName(const ValueDecl *Var) {
  return Var ? Var->getNameAsString() : std::string("?");
}

ValueFact ValueFact::join(const ValueFact &Other) const {
  if (Devices.isBottom())
    return Other;
  if (Other.Devices.isBottom())
    return *this;
  ValueFact Result;
  Result.Devices = Devices.join(Other.Devices);
  Result.Dim = analysis::join(Dim, Other.Dim);
  // Keep the first origin for stable notes, and the origin of each device.
  Result.From = From.Kind != OriginKind::None ? From : Other.From;
  if (Devices == Other.Devices) {
    Result.MemberOrigins = MemberOrigins;
  } else if (Result.Devices.isKnown()) {
    for (const AbstractDevice &D : Result.Devices.devices())
      Result.MemberOrigins.push_back(
          {D, llvm::is_contained(Devices.devices(), D) ? originOf(D) : Other.originOf(D)});
  }
  Result.OptionsWithoutDevice = OptionsWithoutDevice && Other.OptionsWithoutDevice;
  if (TransferCall == Other.TransferCall && TransferSource == Other.TransferSource) {
    Result.TransferCall = TransferCall;
    Result.TransferSource = TransferSource;
  }
  return Result;
}

Origin ValueFact::originOf(const AbstractDevice &Device) const {
  for (const auto &[Member, Where] : MemberOrigins)
    if (Member == Device)
      return Where;
  return From;
}

// ---------------------------------------------------------------------------
// DeviceAnalysis

DeviceAnalysis::DeviceAnalysis(ASTContext &Context, ApiProfile Profile)
    : Context(Context), Model(Context, Profile) {}

DeviceAnalysis::~DeviceAnalysis() = default;

namespace {

bool analyzable(const FunctionDecl &Function, const ASTContext &Context) {
  return Function.hasBody() && Function.doesThisDeclarationHaveABody() &&
         !Function.isDependentContext() && !Function.isInvalidDecl() &&
         !Context.getDiagnostics().hasUncompilableErrorOccurred();
}

} // namespace

bool DeviceAnalysis::analyze(const FunctionDecl &Function, FindingsHandler &Handler,
                             FactObserver Observer) {
  if (!analyzable(Function, Context))
    return false;
  BodyFacts Body(*Function.getBody(), Model);
  if (!Body.mentionsApi())
    return false;
  FunctionAnalyzer Analyzer(*this, Function, {}, &Handler, Body);
  if (!Analyzer.run(Observer))
    return false;
  for (const CXXMemberCallExpr *Call : Body.discardedTransfers()) {
    DiscardedTransferFinding Finding;
    Finding.Call = Call;
    Finding.Receiver = Call->getImplicitObjectArgument();
    Finding.Method = Call->getMethodDecl()->getName().str();
    const auto *Ref = dyn_cast<DeclRefExpr>(Finding.Receiver->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Finding.ReceiverIsAssignable = Var && Var->hasLocalStorage() &&
                                   !Var->getType()->isReferenceType() &&
                                   !Var->getType().isConstQualified();
    Handler.onDiscardedTransfer(Finding);
  }
  for (const LambdaExpr *Lambda : Body.lambdas())
    analyze(*Lambda->getCallOperator(), Handler, Observer);
  return true;
}

ValueFact DeviceAnalysis::summarize(const FunctionDecl &Function,
                                    llvm::ArrayRef<ValueFact> Arguments) {
  if (!analyzable(Function, Context) || InProgress.contains(&Function) ||
      InProgress.size() >= kMaxSummaryDepth)
    return ValueFact::unknown();
  // Key: the function and the arguments' devices and ranks.
  std::string Key;
  llvm::raw_string_ostream KeyStream(Key);
  KeyStream << static_cast<const void *>(&Function);
  for (const ValueFact &Arg : Arguments) {
    KeyStream << '|' << static_cast<int>(Arg.Dim) << Arg.OptionsWithoutDevice;
    KeyStream << (Arg.Devices.isBottom() ? "b" : Arg.Devices.isUnknown() ? "u" : "s");
    for (const AbstractDevice &D : Arg.Devices.devices())
      KeyStream << ',' << static_cast<int>(D.kind()) << ':' << D.index() << ':'
                << static_cast<const void *>(D.symbol());
  }
  KeyStream.flush();
  if (auto It = Summaries.find(Key); It != Summaries.end())
    return It->second;

  InProgress.insert(&Function);
  BodyFacts Facts(*Function.getBody(), Model);
  FunctionAnalyzer Analyzer(*this, Function, Arguments, /*Handler=*/nullptr, Facts);
  std::optional<ValueFact> Result = Analyzer.run(nullptr);
  InProgress.erase(&Function);
  ValueFact Summary = Result ? *Result : ValueFact::unknown();
  if (Summary.Devices.isBottom())
    Summary = ValueFact::unknown();
  // The callee's own Device variables mean nothing to the caller.
  Summary.Devices = Summary.Devices.forgetIf([&](const AbstractDevice &D) {
    return !D.isConcrete() && D.symbol() &&
           Function.Encloses(D.symbol()->getDeclContext());
  });
  Summary.setOrigin({});
  Summary.TransferCall = nullptr;
  Summary.TransferSource = DeviceSet();
  Summaries.emplace(std::move(Key), Summary);
  return Summary;
}

} // namespace placelint::analysis
