// placement-unsynchronized-read: a host tensor that a non_blocking download
// fills (`d.to(kCPU, /*non_blocking=*/true)`, `h.copy_(d, true)`) read
// before anything waited for the copy: it may hold stale or partial values
// (docs/rules/placement-unsynchronized-read.md). The flow analysis keeps
// the copy as the value's pending download until a synchronisation
// (cuda::synchronize, stream or event synchronize, item() or a blocking
// download of a device tensor, a function that does one) on every path; a
// read of a value still pending (FunctionFacts::hostReads) is the bug.
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace placelint::analysis {

using namespace clang;

namespace {

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
  for (const HostRead &Read : Facts.hostReads())
    Note(Read.Copy, {Read.E, Read.E});
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
