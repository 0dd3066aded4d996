// Host reads: after the fixed point, the uses of a tensor's values by the
// host while a non_blocking download still fills it (its fact's Pending),
// recorded in control-flow order for placement-unsynchronized-read. What is
// a read depends on what uses the tensor, so it is decided here, with the
// function's parents, once the facts have converged.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"
#include "flow/FunctionSummaries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Whether Call (`h.to(device)`) copies the host tensor to a device: the
// copy is queued on the stream behind the download that fills it, so the
// host reads nothing.
bool uploads(const CXXMemberCallExpr &Call, const FunctionFacts &Facts) {
  const ValueFact *Result = Facts.factAt(&Call);
  const Transfer *Upload = Result ? Facts.transferThatMade(*Result) : nullptr;
  return Upload && Upload->Call == &Call && !Upload->IsSync && Upload->Target.excludesCpu();
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
  // A list of tensors (`std::vector<Tensor>`) is read as a whole only by a
  // function it is given (`torch::cat(v)`, `torch::save(v, path)`); its
  // methods and operators (`v[i]`, `push_back`) add or hand back elements,
  // whose reads are the elements'.
  bool List = Model.classify(E.getType()) == ValueKind::TensorList;
  if (List && (!isa_and_nonnull<CallExpr>(Parent) ||
               isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Parent)))
    return false;
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

} // namespace

void DeviceFlow::recordHostReads() {
  // A place naming the host tensor, or a call handing it back (a getter,
  // a lambda returning what it captured).
  std::vector<HostRead> Pending;
  for (const auto &[E, Fact] : Facts.expressions())
    if (Fact.Pending && isa<DeclRefExpr, MemberExpr, CallExpr>(E) &&
        (Model.isTensor(E->getType()) || Model.classify(E->getType()) == ValueKind::TensorList))
      Pending.push_back({E, Fact.Pending});
  if (Pending.empty())
    return; // the function's parents are not needed
  std::vector<HostRead> Reads;
  for (const HostRead &Read : Pending)
    if (isRead(*Read.E, Facts))
      Reads.push_back(Read);
  const FunctionSequence &Sequence = Facts.sequence();
  const SourceManager &Sources = Facts.function().getASTContext().getSourceManager();
  llvm::sort(Reads, [&](const HostRead &L, const HostRead &R) {
    if (Sequence.isEarlier(*L.E, *R.E))
      return true;
    if (Sequence.isEarlier(*R.E, *L.E))
      return false;
    return Sources.isBeforeInTranslationUnit(L.E->getBeginLoc(), R.E->getBeginLoc());
  });
  Facts.recordHostReads(std::move(Reads));
}

} // namespace placelint::analysis
