// placement-unsynchronized-read: a host tensor that a non_blocking download
// fills (`d.to(kCPU, /*non_blocking=*/true)`, `h.copy_(d, true)`) read
// before anything waited for the copy: it may hold stale or partial values
// (docs/rules/placement-unsynchronized-read.md). The flow analysis keeps
// the copy as the value's pending download until a synchronisation
// (cuda::synchronize, stream or event synchronize, item() or a blocking
// download of a device tensor, a function that does one) on every path; a
// read of a value still pending is the bug.
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "flow/FunctionFacts.h"
#include "flow/FunctionSummaries.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Whether Call (`h.to(device)`) copies the host tensor to a device: the
// copy is queued on the stream behind the download that fills it, so the
// host reads nothing.
bool uploads(const CXXMemberCallExpr &Call, const FunctionFacts &Facts) {
  const ValueFact *Result = Facts.factAt(&Call);
  const Transfer *Upload = Result ? Facts.transferThatMade(*Result) : nullptr;
  return Upload && Upload->Call == &Call && !Upload->IsSync && Upload->Target.isKnown() &&
         llvm::none_of(Upload->Target.devices(), [](const AbstractDevice &D) { return D.isCpu(); });
}

// Whether E (a variable, a field or a call giving the host tensor) is read
// there: its values used by a method, an operator, or a function it is
// passed to. Reading what it is (sizes(), device()), writing it, copying
// the handle, uploading it to a device, returning or moving it are not reads.
bool isRead(const Expr &E, const FunctionFacts &Facts) {
  const ApiModel &Model = Facts.body().model();
  const FunctionSequence &Sequence = Facts.sequence();
  const Stmt *Child = nullptr;
  const Stmt *Parent = Sequence.user(E, &Child);
  if (const auto *Callee = dyn_cast_or_null<MemberExpr>(Parent)) {
    const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Sequence.user(*Callee));
    if (!Call)
      return false;
    switch (Model.classifyCall(*Call).Kind) {
    case CallKind::Metadata:
    case CallKind::DeviceOf:
    case CallKind::OptionsOf:
    case CallKind::CrossDeviceCopy: // written, not read
    case CallKind::ReplacesData:    // its data replaced, not read
    case CallKind::Unmodelled:
      return false;
    case CallKind::Transfer:
      return !uploads(*Call, Facts);
    case CallKind::DataAccess: // the memory itself, read by the host
    default:
      return true;
    }
  }
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Parent)) {
    // `a = h` copies the handle, `h = a` replaces it: neither reads values.
    if (Operator->getOperator() == OO_Equal)
      return false;
    return !(Operator->isAssignmentOp() && Operator->getArg(0) == Child);
  }
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Parent)) {
    if (isa<CXXMemberCallExpr>(Call) || Call->getCallee() == Child)
      return false; // an argument of a method of another object: its summary's
    // A function of the unit reads it where its body does (the summary's
    // PendingReads): keeping the handle, or uploading it, reads nothing.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && hasUserBody(Callee->getDefinition(), Facts.function().getASTContext()))
      return false;
    switch (Model.classifyCall(*Call).Kind) {
    case CallKind::StdMove:
    case CallKind::TupleMake:
    case CallKind::MakeShared:
      return false;
    default:
      return true;
    }
  }
  if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Parent))
    return Unary->getOpcode() != UO_AddrOf;
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Parent))
    return !(Binary->isAssignmentOp() && Binary->getLHS() == Child);
  return false;
}

// The statement around S that its block lists, and that block.
std::pair<const Stmt *, const CompoundStmt *> statementOf(const FunctionSequence &Sequence,
                                                          const Stmt &S) {
  for (const Stmt *Current = &S; Current; Current = Sequence.parent(*Current))
    if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Sequence.parent(*Current)))
      return {Current, Block};
  return {nullptr, nullptr};
}

// The fact of the tensor the copy reads.
const ValueFact *copiedFrom(const FunctionFacts &Facts, const CallExpr &Copy) {
  const Transfer *T = Facts.transferAt(Copy);
  return T ? &T->Source : nullptr;
}

// Whether the copy reads a tensor that may be on a device (a download of a
// host tensor is no copy at all).
bool mayReadTheDevice(const FunctionFacts &Facts, const CallExpr &Copy) {
  const ValueFact *Source = copiedFrom(Facts, Copy);
  std::optional<AbstractDevice> From = Source ? Source->Devices.single() : std::nullopt;
  return !From || !From->isCpu();
}

bool copiesFromCuda(const FunctionFacts &Facts, const CallExpr &Copy) {
  const ValueFact *Source = copiedFrom(Facts, Copy);
  return Source && Source->Devices.isKnown() &&
         llvm::all_of(Source->Devices.devices(),
                      [](const AbstractDevice &D) { return D.isConcrete() && D.type() == DeviceKind::CUDA; });
}

} // namespace

void diagnoseUnsynchronizedRead(const FunctionFacts &Facts, FindingsHandler &Handler) {
  const FunctionSequence &Sequence = Facts.sequence();
  const ApiModel &Model = Facts.body().model();
  // The first read of each copy, in control-flow order: the read, and
  // where it happens here (the call, for a read in a function it calls).
  struct Read {
    const Expr *E;
    const Expr *Here;
  };
  llvm::DenseMap<const CallExpr *, Read> FirstRead;
  auto Note = [&](const CallExpr *Copy, Read R) {
    if (!Copy || !mayReadTheDevice(Facts, *Copy))
      return;
    auto [It, New] = FirstRead.try_emplace(Copy, R);
    if (!New && Sequence.isEarlier(*R.Here, *It->second.Here))
      It->second = R;
  };
  // A place naming the host tensor, or a call handing it back (a getter,
  // a lambda returning what it captured).
  for (const auto &[E, Fact] : Facts.expressions())
    if (isa<DeclRefExpr, MemberExpr, CallExpr>(E) && Model.isTensor(E->getType()) &&
        Fact.Pending && isRead(*E, Facts))
      Note(Fact.Pending, {E, E});
  for (const ReadThroughCall &Through : Facts.readsThroughCalls())
    Note(Through.Read.Copy, {Through.Read.Read, Through.Through});
  llvm::SmallVector<std::pair<const Expr *, UnsynchronizedReadFinding>, 4> Findings;
  for (const auto &[Copy, First] : FirstRead) {
    UnsynchronizedReadFinding Finding{First.E, Copy, nullptr, {}};
    auto [ReadStatement, ReadBlock] = statementOf(Sequence, *First.Here);
    auto [CopyStatement, CopyBlock] = statementOf(Sequence, *Copy);
    Finding.Synchronize = Model.cudaSynchronizeCall();
    if (ReadBlock && ReadBlock == CopyBlock && ReadStatement != CopyStatement &&
        copiesFromCuda(Facts, *Copy) && !Finding.Synchronize.empty())
      Finding.InsertBefore = ReadStatement;
    Findings.push_back({First.Here, Finding});
  }
  llvm::sort(Findings, [&](const auto &L, const auto &R) {
    return Sequence.isEarlier(*L.first, *R.first);
  });
  for (const auto &[Here, Finding] : Findings)
    Handler.onUnsynchronizedRead(Finding);
}

} // namespace placelint::analysis
