// Which blocks of a function's CFG an availability check guards, and how
// many CUDA devices it ensures there: a block reached only through the
// "available" edge of a branch on `cuda::is_available()` (one device),
// `device_count() > 1` (two), ... in an `if`, a loop condition, a ternary,
// an early return or throw, TORCH_CHECK or assert, directly or through a
// variable that holds the check's value.
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace placelint::analysis {

class ConditionReader;

class AvailabilityGuards {
public:
  AvailabilityGuards(clang::CFG &Graph, const ApiModel &Model,
                     const clang::ASTContext &Context);
  ~AvailabilityGuards();

  // How many CUDA devices every path to Block has checked are there (0:
  // no check guards it).
  unsigned devicesEnsuredAt(const clang::CFGBlock &Block) const;
  // The same for the block that evaluates S (0 when no block does, as for
  // a statement inside a lambda's body).
  unsigned devicesEnsuredAt(const clang::Stmt &S) const;
  // The flags every path to Block has found true, whose value the callers
  // give: the function's bool parameters (`if (cuda) model->to(kCUDA);` in
  // a helper taking `bool cuda`) and, in a method, bool fields of `this`
  // (`if (use_cuda_)`, set by the constructor). The callers say, with the
  // value they pass, whether the block runs.
  llvm::SmallVector<const clang::ValueDecl *, 2> flagsTrueAt(const clang::CFGBlock &Block) const;
  // Whether every path from the entry to Block passes Earlier.
  bool dominates(const clang::CFGBlock &Earlier, const clang::CFGBlock &Block) const {
    return Dominators.dominates(&Earlier, &Block);
  }
  // How many CUDA devices Condition being true ensures, read as a branch's
  // condition here is (a caller passing its `use_cuda` flag, set from
  // `cuda::is_available()`, for a helper's `bool cuda`).
  unsigned devicesEnsuredIfTrue(const clang::Expr &Condition) const;

private:
  struct Guard {
    const clang::CFGBlock *Block;
    unsigned Devices;
  };
  struct FlagGuard {
    const clang::CFGBlock *Block;
    const clang::ValueDecl *Flag;
  };

  clang::CFG &Graph;
  clang::CFGDomTree Dominators;
  llvm::SmallVector<Guard, 4> Guards;
  llvm::SmallVector<FlagGuard, 2> FlagGuards;
  std::unique_ptr<ConditionReader> Reader;
};

} // namespace placelint::analysis
