// The calls of the unit's functions, and the availability checks around
// them: a helper that asks for CUDA is guarded when every call of it in
// the unit is (or when every call of its caller is, a few levels up).
#pragma once

#include "CallIndex.h"
#include "flow/AvailabilityGuards.h"
#include "flow/SummaryProvider.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

class CallerGuards {
public:
  // Calls: the unit's index, shared with the rules.
  CallerGuards(clang::ASTContext &Context, const ApiModel &Model, CallIndex &Calls)
      : Context(Context), Model(Model), Calls(Calls) {}

  // How many CUDA devices the checks around every call of Function in the
  // main file ensure (a call through a virtual method calls each override):
  // 0 when it has no such call, when it is also used otherwise than called
  // (a callback, an override of a library's virtual method), or when one
  // call is not guarded.
  // A call that passes a constant false for one of Flags does not count.
  CallersGuard devicesEnsuredByCallers(const clang::FunctionDecl &Function,
                                       llvm::ArrayRef<const clang::ValueDecl *> Flags = {});

private:
  static constexpr unsigned kMaxDepth = 3;
  // As many devices as any request needs: for a request no call runs.
  static constexpr unsigned kNeverRuns = 1u << 15;
  struct CallerGraph {
    std::unique_ptr<clang::CFG> Graph;
    std::unique_ptr<AvailabilityGuards> Guards;
  };

  // Weakest: the direct call that ensures the fewest devices.
  unsigned ensuredByCallers(const clang::FunctionDecl &Function, unsigned Depth,
                            const clang::Expr **Weakest = nullptr,
                            llvm::ArrayRef<const clang::ValueDecl *> Flags = {});
  // Whether Site passes a constant false for one of Flags.
  bool passesFalse(const CallIndex::CallSite &Site,
                   llvm::ArrayRef<const clang::ValueDecl *> Flags) const;
  unsigned ensuredAt(const CallIndex::CallSite &Site);
  // What Site's arguments for Flags ensure when true: a caller's flag set
  // from an availability check, or its own flag parameter passed on, which
  // its callers judge (Depth: as ensuredByCallers').
  unsigned ensuredByFlags(const CallIndex::CallSite &Site, unsigned Depth,
                          llvm::ArrayRef<const clang::ValueDecl *> Flags);
  const CallerGraph &graphOf(const clang::FunctionDecl &Caller);

  clang::ASTContext &Context;
  const ApiModel &Model;
  CallIndex &Calls;
  llvm::DenseMap<const clang::FunctionDecl *, CallerGraph> Graphs;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
};

} // namespace placelint::analysis
