// Which places that ask for CUDA an availability check guards: a block
// reached only through the "available" edge of a branch on
// `cuda::is_available()` / `device_count()` (an `if`, a ternary, an early
// return or throw, TORCH_CHECK, assert), found with the CFG's dominator tree.
#include "flow/DeviceFlow.h"

#include "BodyFacts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "llvm/ADT/DenseSet.h"

namespace placelint::analysis {

using namespace clang;

namespace {

bool isAvailabilityCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return false;
  StringRef Name = Callee->getName();
  return Name == "is_available" || Name == "device_count" || Name == "getNumGPUs";
}

bool isZero(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Int = dyn_cast<IntegerLiteral>(E))
    return Int->getValue() == 0;
  if (const auto *Bool = dyn_cast<CXXBoolLiteralExpr>(E))
    return !Bool->getValue();
  return false;
}

// +1 when the condition being true means CUDA is there, -1 when its being
// false does, 0 when it says nothing.
int availabilityPolarity(const Expr *E) {
  if (!E)
    return 0;
  E = E->IgnoreParenImpCasts();
  if (isAvailabilityCall(E))
    return 1;
  if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot)
    return -availabilityPolarity(Not->getSubExpr());
  // TORCH_CHECK's __builtin_expect(!(cond), 0).
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->getBuiltinCallee() && Call->getNumArgs() >= 1)
    return availabilityPolarity(Call->getArg(0));
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return availabilityPolarity(Cast->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    int Left = availabilityPolarity(Binary->getLHS());
    switch (Binary->getOpcode()) {
    case BO_LAnd: // both hold on the true edge
      return Left > 0 || availabilityPolarity(Binary->getRHS()) > 0 ? 1 : 0;
    case BO_EQ:
      return isZero(Binary->getRHS()) ? -Left : Left;
    case BO_NE:
    case BO_GT:
    case BO_GE:
      return Left;
    case BO_LT:
    case BO_LE:
      return -Left;
    default:
      return 0;
    }
  }
  return 0;
}

} // namespace

void DeviceFlow::resolveCudaGuards() {
  if (Facts.cudaRequests().empty())
    return;
  CFGDomTree Dominators(Graph.get());
  // The "available" successor of each availability branch, when it has no
  // other way in.
  llvm::SmallVector<const CFGBlock *, 4> Guards;
  for (const CFGBlock *Block : *Graph) {
    const Expr *Condition = dyn_cast_or_null<Expr>(Block->getTerminatorCondition());
    int Polarity = availabilityPolarity(Condition);
    if (!Polarity || Block->succ_size() != 2)
      continue;

    const CFGBlock *Available = *(Block->succ_begin() + (Polarity > 0 ? 0 : 1));
    // Edges from a branch that cannot return (TORCH_CHECK's failure) do not
    // count as ways in.
    if (!Available)
      continue;
    auto WaysIn = llvm::count_if(Available->preds(), [](const CFGBlock::AdjacentBlock &Pred) {
      return Pred.getReachableBlock() != nullptr;
    });
    if (WaysIn == 1)
      Guards.push_back(Available);
  }
  llvm::DenseMap<unsigned, const CFGBlock *> ById;
  for (const CFGBlock *Block : *Graph)
    ById[Block->getBlockID()] = Block;
  Facts.setCudaGuards([&](unsigned Id) {
    const CFGBlock *Block = ById.lookup(Id);
    return Block && llvm::any_of(Guards, [&](const CFGBlock *Guard) {
             return Dominators.dominates(Guard, Block);
           });
  });
}

void DeviceFlow::noteCudaRequest(const Expr &Where, const AbstractDevice &Device) {
  if (Device.isCuda() && CurrentBlock && !Facts.body().isComparedDevice(Where))
    Facts.recordCudaRequest(Where, CurrentBlock->getBlockID());
}

} // namespace placelint::analysis
