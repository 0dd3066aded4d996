// Operations combining tensors: the device of their result and PyTorch's
// device rule (TensorIterator's: one device for all operands, except that a
// 0-dim cpu tensor may join others as an input).
#include "flow/DeviceFlow.h"

#include <algorithm>

namespace placelint::analysis {

using namespace clang;

bool mayBeCpuScalar(const ValueFact &Fact) {
  std::optional<AbstractDevice> Device = Fact.Devices.single();
  return !notZeroDim(Fact.Dim) && Device && Device->isCpu();
}

std::optional<Conflict> findConflict(llvm::ArrayRef<Operand> Operands) {
  llvm::SmallVector<const Operand *, 4> Candidates;
  for (const Operand &O : Operands) {
    if (!O.Fact.Devices.isKnown())
      continue; // unknown never conflicts
    if (O.Promotable && mayBeCpuScalar(O.Fact))
      continue; // scalar promotion
    Candidates.push_back(&O);
  }
  if (Candidates.size() < 2)
    return std::nullopt;
  // Definite: the first operand against the first that is certainly elsewhere.
  const Operand &First = *Candidates.front();
  if (std::optional<AbstractDevice> A = First.Fact.Devices.single(); A && A->isConcrete())
    for (const Operand *Other : llvm::ArrayRef(Candidates).drop_front())
      if (std::optional<AbstractDevice> B = Other->Fact.Devices.single();
          B && B->isConcrete() && compare(*A, *B) == Agreement::Differ)
        return Conflict{&First, Other, *A, *B, /*Definite=*/true};
  // May: an operand on one concrete device against one that may be
  // elsewhere; or against one moved to the same (variable) device on some
  // paths only (`if (gpu) x = x.to(dev);` then `model(x)` with model on dev).
  for (size_t I = 0; I < Candidates.size(); ++I)
    for (size_t J = I + 1; J < Candidates.size(); ++J)
      for (auto [Uncertain, Known] :
           {std::pair{Candidates[I], Candidates[J]}, std::pair{Candidates[J], Candidates[I]}}) {
        std::optional<AbstractDevice> Definite = Known->Fact.Devices.single();
        if (!Definite)
          continue;
        llvm::ArrayRef<AbstractDevice> Members = Uncertain->Fact.Devices.devices();
        std::optional<AbstractDevice> UncertainSingle = Uncertain->Fact.Devices.single();
        if (Definite->isConcrete() ? UncertainSingle && UncertainSingle->isConcrete()
                                   : !llvm::any_of(Members, [&](const AbstractDevice &D) {
                                       return compare(D, *Definite) == Agreement::Same;
                                     }))
          continue;
        for (const AbstractDevice &Member : Members) {
          Agreement Relation = compare(Member, *Definite);
          if (Relation == Agreement::Differ || Relation == Agreement::MayDiffer)
            return Conflict{Uncertain, Known, Member, *Definite, /*Definite=*/false};
        }
      }
  return std::nullopt;
}

ValueFact DeviceFlow::operation(const CallExpr &Call, ApiCall Api,
                                llvm::SmallVector<Operand, 3> Operands) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  StringRef Name = Callee && Callee->getIdentifier() ? Callee->getName() : StringRef();
  return operation(Call, Name, Api.Rank, std::move(Operands));
}

ValueFact DeviceFlow::operation(const Expr &Call, StringRef Name, ResultRank Rank,
                                llvm::SmallVector<Operand, 3> Operands) {
  ValueFact Result = combine(Call, Operands);
  if (Rank == ResultRank::ZeroDim)
    Result.Dim = ZeroDim::Yes;
  else if (Rank == ResultRank::NotZeroDim)
    Result.Dim = ZeroDim::No;
  else if (Rank == ResultRank::Unknown)
    Result.Dim = ZeroDim::Unknown;
  // The operation throws there: what follows it must not be reported again.
  if (findConflict(Operands)) {
    Result.Devices = DeviceSet::unknown();
    Result.AfterMismatch = true;
  }
  Facts.record(Operation{&Call, Name.str(), std::move(Operands)});
  return Result;
}

ValueFact DeviceFlow::combine(const Expr &Call, llvm::ArrayRef<Operand> Operands) const {
  if (llvm::any_of(Operands, [](const Operand &O) { return O.Fact.AfterMismatch; })) {
    ValueFact Result = resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown);
    Result.AfterMismatch = true;
    return Result;
  }
  // PyTorch's TensorIterator: 0-dim cpu inputs follow the other operands.
  bool AllCpuScalars =
      llvm::all_of(Operands, [](const Operand &O) { return mayBeCpuScalar(O.Fact); });
  DeviceSet Devices;
  std::optional<ZeroDim> Dim;
  for (const Operand &O : Operands) {
    Dim = Dim ? broadcast(*Dim, O.Fact.Dim) : O.Fact.Dim;
    if (!AllCpuScalars && O.Promotable && mayBeCpuScalar(O.Fact))
      continue;
    // If the operation runs, an operand of unknown device is where the
    // others are.
    if (O.Fact.Devices.isUnknown())
      continue;
    if (std::optional<AbstractDevice> Single = O.Fact.Devices.single();
        Single && Devices.single() && compare(*Single, *Devices.single()) == Agreement::Same)
      continue;
    Devices = Devices.join(O.Fact.Devices);
  }
  if (Devices.isBottom())
    Devices = DeviceSet::unknown();
  return resultOf(Call, Devices, Dim.value_or(ZeroDim::Unknown));
}

} // namespace placelint::analysis
